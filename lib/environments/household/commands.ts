import type { ActionParse, StepCompletion } from "@/lib/domain/environment";
import { dropClosingMark, trimEndChars, unwrapOnce } from "@/lib/domain/linear-text";
import { stripReasoning } from "@/lib/environments/qa/reasoning-blocks";

/**
 * The household command grammar: ALFWorld's commands as the ReAct/Reflexion
 * few-shot transcripts use them (reference §3.3; alfworld-alfred.twl2 action
 * templates, with the transcripts' `put X in/on Y` in place of the grammar
 * file's later `move X to Y`), plus ReAct's `think: …`. Every function here is
 * total: it never throws. The reader (`splitCompletion`, `parseAction`) takes
 * the first well-formed command of a completion and reports what it left out
 * (docs/decisions/0014-action-readers-and-loops.md).
 */

/** A parsed household command. Names are lowercase (`cabinet 1`) but not checked against the scene. */
export type HouseholdCommand =
  | { verb: "look" }
  | { verb: "inventory" }
  | { verb: "think"; text: string }
  | { verb: "go to" | "open" | "close" | "examine"; target: string }
  | { verb: "use"; object: string }
  | { verb: "take"; object: string; receptacle: string }
  | { verb: "put"; object: string; receptacle: string }
  | { verb: "heat" | "cool" | "clean" | "slice"; object: string; tool: string };

/** The verbs of {@link HouseholdCommand}, as `ParsedAction.type` values. */
export const HOUSEHOLD_VERBS = ["look", "inventory", "think", "go to", "open", "close", "examine", "use", "take", "put", "heat", "cool", "clean", "slice"] as const;

/** The commands, for error messages and help texts. */
export const COMMAND_SUMMARY =
  "look, inventory, go to X, open X, close X, take X from Y, put X in/on Y, use X, heat X with Y, cool X with Y, clean X with Y, slice X with Y, examine X, think: …";

/**
 * Cleans an action line: a leading `>` prompt sign the model repeated and the
 * surrounding whitespace go (`>go to stoveburner 1` occurs in the transcripts).
 */
export function cleanActionLine(text: string): string {
  return text.trim().replace(/^>+\s*/, "").trim();
}

/** Trailing punctuation a model puts after a command (`go to desk 1.`); ALFWorld's names never end in it (with white space). */
const trailingPunctuation = ".,;:!?";

/** Trailing punctuation and closing quotes, backticks or `**` (`go to desk 1."`), for {@link normaliseCommand} (with white space). */
const trailingNoise = ".,;:!?\"'`”’*";

/**
 * The one normalisation every household command goes through before it is
 * matched — by the reader (decision 0014) and by the world alike (decision
 * 0020): a leading `>` goes, case is folded (ALFWorld's verbs and names are
 * lowercase words), runs of whitespace become one space, and trailing
 * punctuation and closing quotes are dropped.
 *
 * @example normaliseCommand("> Go  to Desk 1.") === "go to desk 1"
 */
export function normaliseCommand(text: string): string {
  return trimEndChars(cleanActionLine(text).toLowerCase().replace(/\s+/g, " "), trailingNoise).trim();
}

const withTool = /^(heat|cool|clean|slice) (.+?) with (.+)$/;

/**
 * Parses one command. `think:` keeps its text as written (trimmed); everything
 * else is matched after {@link normaliseCommand} (case, spacing, trailing
 * punctuation: `Go to  Desk 1.` is `go to desk 1`). `put` needs
 * the literal `in/on`, as in the ALFWorld version of the paper (`put X in Y` is
 * not a command there). Returns an error message when the text has none of the
 * command shapes.
 */
export function parseHouseholdCommand(text: string): { ok: true; command: HouseholdCommand } | { ok: false; error: string } {
  const line = cleanActionLine(text);
  const think = /^think\s*:/i.exec(line);
  if (think !== null) return { ok: true, command: { verb: "think", text: line.slice(think[0].length).trim() } };
  const command = normaliseCommand(line);
  if (command === "") return { ok: false, error: `The action is empty. Commands: ${COMMAND_SUMMARY}.` };
  if (command === "look" || command === "inventory") return { ok: true, command: { verb: command } };
  let match = /^(go to|open|close|examine) (.+)$/.exec(command);
  if (match !== null) {
    return { ok: true, command: { verb: match[1] as "go to" | "open" | "close" | "examine", target: match[2] ?? "" } };
  }
  match = /^use (.+)$/.exec(command);
  if (match !== null) return { ok: true, command: { verb: "use", object: match[1] ?? "" } };
  match = /^take (.+?) from (.+)$/.exec(command);
  if (match !== null) return { ok: true, command: { verb: "take", object: match[1] ?? "", receptacle: match[2] ?? "" } };
  match = /^put (.+?) in\/on (.+)$/.exec(command);
  if (match !== null) return { ok: true, command: { verb: "put", object: match[1] ?? "", receptacle: match[2] ?? "" } };
  if (/^put /.test(command)) return { ok: false, error: 'put needs the literal "in/on": put X in/on Y.' };
  match = withTool.exec(command);
  if (match !== null) {
    const verb = match[1] as "heat" | "cool" | "clean" | "slice";
    return { ok: true, command: { verb, object: match[2] ?? "", tool: match[3] ?? "" } };
  }
  return { ok: false, error: `"${line}" is not a command. Commands: ${COMMAND_SUMMARY}.` };
}

/** The `{ type, argument }` form of a command, for the event log (`take` / `mug 1 from shelf 1`). */
export function describeCommand(command: HouseholdCommand): { type: string; argument: string } {
  switch (command.verb) {
    case "look":
    case "inventory":
      return { type: command.verb, argument: "" };
    case "think":
      return { type: "think", argument: command.text };
    case "go to":
    case "open":
    case "close":
    case "examine":
      return { type: command.verb, argument: command.target };
    case "use":
      return { type: "use", argument: command.object };
    case "take":
      return { type: "take", argument: `${command.object} from ${command.receptacle}` };
    case "put":
      return { type: "put", argument: `${command.object} in/on ${command.receptacle}` };
    default:
      return { type: command.verb, argument: `${command.object} with ${command.tool}` };
  }
}

/** An `Action:` / `Action 3:` / `**Action:**` label at the start of a line (any case). */
const actionLabel = /^[ \t]*(?:[*_]{1,4}[ \t]*)?action[ \t]*(?:\d+[ \t]*)?(?:[*_]{1,4}[ \t]*)?:[*_]*[ \t]*/i;
/** A line holding only a code fence (```, ```text, ~~~). */
const codeFence = /^[ \t]*(?:```|~~~)[\w-]*[ \t]*$/;
/** Where an unclosed `<think>` block ends: a line with an `Action` label or a `>` prompt sign. */
const reasoningEndsAt = /^[ \t]*(?:(?:[*_]{1,4}[ \t]*)?action[ \t]*(?:\d+[ \t]*)?(?:[*_]{1,4}[ \t]*)?:|>)/i;
/** An entity name of ALFWorld (`cabinet 12`): one word, a space, a number (task.ts `ENTITY_NAME`). */
const NAME = String.raw`[a-z]+[ \t]+[1-9]\d*`;
/** The command shapes whose end is known, so that text after them can be told apart (case-insensitive). */
const commandShapes: readonly RegExp[] = [
  /^(?:look|inventory)(?![\p{L}\p{N}_])/iu,
  new RegExp(String.raw`^(?:go[ \t]+to|open|close|examine|use)[ \t]+${NAME}(?![\p{L}\p{N}_])`, "iu"),
  new RegExp(String.raw`^take[ \t]+${NAME}[ \t]+from[ \t]+${NAME}(?![\p{L}\p{N}_])`, "iu"),
  new RegExp(String.raw`^put[ \t]+${NAME}[ \t]+in\/on[ \t]+${NAME}(?![\p{L}\p{N}_])`, "iu"),
  new RegExp(String.raw`^(?:heat|cool|clean|slice)[ \t]+${NAME}[ \t]+with[ \t]+${NAME}(?![\p{L}\p{N}_])`, "iu"),
];

/** A line that starts with one of the grammar's verbs (any case): an attempt at a command. */
const commandVerbAtStart = /^(?:look|inventory|think|go|open|close|examine|use|take|put|heat|cool|clean|slice)(?![\p{L}\p{N}_])/iu;

/** Text worth reporting as ignored: it has a letter or a digit (not just a full stop or quotes). */
function meaningful(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** Drops a leading `>`, `Action n:` labels, and wrapping quotes, backticks or `**`. */
function unwrapLine(text: string): string {
  let current = cleanActionLine(text);
  for (;;) {
    const label = actionLabel.exec(current);
    if (label !== null && label[0] !== "") {
      current = cleanActionLine(current.slice(label[0].length));
      continue;
    }
    const wrapped = unwrapOnce(current);
    if (wrapped !== null) {
      current = cleanActionLine(wrapped);
      continue;
    }
    // An opening quote or backtick whose closing one comes after the command (`"go to desk 1". Then …`).
    const opening = /^(`+|\*\*|"|“|')(?=\S)/u.exec(current);
    if (opening !== null) {
      current = current.slice(opening[0].length);
      continue;
    }
    return current;
  }
}

/** One action line read: the command as written and what followed it on the line. */
export interface CommandReading {
  /** The command (`go to desk 1`), or the cleaned line when it has none of the known shapes. */
  command: string;
  /** Text after the command on the line worth reporting (`then open drawer 1`); `""` when none. */
  trailing: string;
}

/**
 * Reads the command at the start of one line: after a leading `>`, an
 * `Action n:` label and wrapping quotes or backticks, `think: …` takes the
 * rest of the line; a command of the grammar with ALFWorld's `name n` entities
 * ends after its last entity, and whatever follows (a full stop, a sentence, a
 * second command) is not part of it. A line of no known shape is kept whole,
 * without trailing punctuation, for the parser to judge. Never throws.
 */
export function readCommandLine(line: string): CommandReading {
  const text = unwrapLine(line);
  if (/^think\s*:/i.test(text)) {
    return { command: dropClosingMark(text, "\"”’").trim(), trailing: "" };
  }
  for (const shape of commandShapes) {
    const match = shape.exec(text);
    if (match === null) continue;
    const rest = text.slice(match[0].length);
    return { command: match[0].trim(), trailing: meaningful(rest) ? rest.replace(/^[\s.,;:!?"'`”’*]+/u, "").trim() : "" };
  }
  return { command: dropClosingMark(trimEndChars(text, trailingPunctuation), "\"”’").trim(), trailing: "" };
}

/** What {@link readCompletion} found. */
interface CompletionReading {
  actionText: string;
  reasoning: string;
  ignored: string;
}

/**
 * The household reader over a whole completion (see {@link splitCompletion}).
 */
function readCompletion(completion: string): CompletionReading {
  const { text, reasoning } = stripReasoning(completion, reasoningEndsAt);
  const lines = text
    .split("\n")
    .filter((line) => !codeFence.test(line))
    .map((line) => line.trim())
    .filter((line) => cleanActionLine(line) !== "");
  if (lines.length === 0) return { actionText: "", reasoning, ignored: "" };
  const readings = lines.map(readCommandLine);
  // The first line that starts like a command is the action, even when it is malformed (it is
  // the model's first action); lines before it (a `Thought:` line, prose) are read past.
  let index = readings.findIndex((reading) => commandVerbAtStart.test(reading.command));
  if (index === -1) index = 0;
  const reading = readings[index] ?? { command: "", trailing: "" };
  const ignored = [...lines.slice(0, index), reading.trailing, ...lines.slice(index + 1)].filter((part) => part.trim() !== "").join("\n");
  return { actionText: reading.command, reasoning, ignored };
}

/**
 * The family's total action parser: `{ ok: true, action: { type: verb, argument } }`
 * for a command of the grammar, else `{ ok: false, error }` (the world then
 * answers "Nothing happens.", as ALFWorld does for any unknown command). The
 * text is read as {@link splitCompletion} reads a completion, so a person's
 * action or a recorded one reads the same way. `text` is the command as read
 * (`go to desk 1` for `> Go to desk 1. Then open it.`; the episode executes
 * it); `ignored` what was read past. Whether the named things exist is the
 * world's business.
 */
export function parseAction(actionText: string): ActionParse {
  const read = readCompletion(actionText);
  const text = read.actionText;
  const parsed = parseHouseholdCommand(text);
  if (!parsed.ok) return { ok: false, error: parsed.error, text };
  const action = describeCommand(parsed.command);
  return read.ignored === "" ? { ok: true, action, text } : { ok: true, action, text, ignored: read.ignored };
}

/**
 * Splits one Actor completion. The Actor is stopped at the first newline
 * (reference §3.4: the raw, stripped line is the command), but models write
 * more, so the reader:
 * 1. takes reasoning blocks (`<think>…</think>` and the like; an unclosed one
 *    up to a line with an `Action` label or a `>`) out into `reasoning`: they
 *    are never read for commands;
 * 2. takes the first non-empty line that starts with a command's verb (after a
 *    leading `>`, an `Action n:` label, wrapping quotes or backticks; trailing
 *    punctuation and text after the command dropped: {@link readCommandLine}),
 *    or the first line when none does; a malformed command there is the
 *    step's action (and gets "Nothing happens."), a later line is not tried;
 * 3. records everything else — lines before and after it (an invented
 *    observation, a second command), text after the command — in `ignored`.
 * There is no separate thought: reasoning is the action `think: …`.
 */
export function splitCompletion(completion: string): StepCompletion {
  const read = readCompletion(completion);
  const result: StepCompletion = { thought: "", actionText: read.actionText };
  if (read.reasoning !== "") result.reasoning = read.reasoning;
  if (read.ignored !== "") result.ignored = read.ignored;
  return result;
}
