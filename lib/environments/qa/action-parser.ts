import type { ActionParse, StepCompletion } from "@/lib/domain/environment";
import { trimEndChars, unwrapOnce } from "@/lib/domain/linear-text";
import { stripReasoning } from "./reasoning-blocks";

/**
 * The QA family's action reader: it reads the Actor's completion for one ReAct
 * step (Thought → Action) and parses its action. Both functions are total:
 * they never throw, and whatever they leave out is returned (`ignored`,
 * `reasoning`), so the step can show it.
 *
 * The expected completion for step n (the prompt ends with `Thought n:`) is
 * `<thought>\nAction n: <Verb>[<argument>]`. Real models break this protocol
 * (shared/docs/reflexion-reference.md §2.3, §11 item 3; noahshinn/reflexion
 * issues #43, #47): they repeat labels, write several steps or several actions,
 * invent observations, add a sentence or a full stop after the action, wrap it
 * in quotes, backticks or code fences, change the verb's case, use LangChain's
 * `Action:` / `Action Input:` pair, or think aloud in `<think>` blocks. Only
 * the first well-formed action is ever executed
 * (docs/decisions/0014-action-readers-and-loops.md).
 */

/** The QA family's action verbs, in the reference's spelling (`hotpotqa_runs/agents.py`). */
export const qaVerbs = ["Search", "Lookup", "Finish"] as const;
/** One of {@link qaVerbs}. */
export type QaVerb = (typeof qaVerbs)[number];

/** The valid forms, for error messages. */
export const QA_ACTION_FORMS = "Search[<entity>], Lookup[<keyword>] or Finish[<answer>]";

/** `Action`, `Action 3`, `**Action 3:**`, … at the start of a line (any case). */
const actionLabelAtLineStart = /^[ \t]*(?:[*_]{1,4}[ \t]*)?action[ \t]*(?:\d+[ \t]*)?(?:[*_]{1,4}[ \t]*)?:[*_]*/i;
/** `Action 3:` inside a line (capitalised, numbered), e.g. `I will search it. Action 3: Search[x]`. */
const numberedActionLabelInline = /(?<![\p{L}\p{N}_])Action[ \t]*\d+[ \t]*[*_]*:[*_]*/u;
/** `Action:` inside a line, only when a `Verb[` follows it. */
const bareActionLabelInline = /(?<![\p{L}\p{N}_])Action[ \t]*[*_]*:[*_]{0,4}(?=[ \t]*[`"'*]*\w+[ \t]*\[)/u;
/** A leading `Thought n:` label (any case, optional number and markdown emphasis). */
const thoughtLabel = /^[ \t]*(?:[*_]{1,4}[ \t]*)?thought[ \t]*(?:\d+[ \t]*)?(?:[*_]{1,4}[ \t]*)?:[*_]*[ \t]*/i;
/** A line that starts with any step label. */
const anyLabelAtLineStart = /^[ \t]*(?:[*_]{1,4}[ \t]*)?(?:thought|action|observation)[ \t]*(?:\d+[ \t]*)?(?:[*_]{1,4}[ \t]*)?:/i;
/** An `Observation` label at a line start, or numbered inside a line: where invented text begins. */
const observationLabel = /(?:^|\n)[ \t]*(?:[*_]{1,4}[ \t]*)?observation[ \t]*(?:\d+[ \t]*)?(?:[*_]{1,4}[ \t]*)?:|(?<![\p{L}\p{N}_])Observation[ \t]*\d+[ \t]*:/iu;
/** LangChain's `Action Input:` line (any case, `Action_Input` too). */
const actionInputLabel = /^[ \t]*(?:[*_]{1,4}[ \t]*)?action[ _]input[ \t]*(?:[*_]{1,4}[ \t]*)?:[*_]*[ \t]*/i;
/** A list bullet at the start of a line (`- `, `* `, `1. `). */
const listBullet = /^(?:[-*+][ \t]+|\d+[.)][ \t]+)/u;
/** A line holding only a code fence (```, ```text, ~~~). */
const codeFence = /^[ \t]*(?:```|~~~)[\w-]*[ \t]*$/;
/**
 * Where an action may start: a known verb (any case) with optional spaces or
 * tabs before its `[`, or any other word directly followed by `[`. A word
 * character must not precede it.
 */
const actionStart = /(?<![\p{L}\p{N}_])(?:(search|lookup|finish)[ \t]*|([A-Za-z_]\w*))\[/giu;
/** A known verb alone (the `Action:` half of an `Action:` / `Action Input:` pair), possibly quoted. */
const bareKnownVerb = /^[`"'*]*(search|lookup|finish)[`"'*]*[ \t]*[,;:]?$/i;
/** The same pair written on one line: `Search Action Input: x`. */
const verbWithInlineInput = /^[`"'*]*(search|lookup|finish)[`"'*]*[ \t]*(?:[,;][ \t]*)?action[ _]input[ \t]*:[ \t]*(.+)$/i;

/** Text worth reporting as ignored: it has a letter or a digit (not just quotes, backticks or a full stop). */
function meaningful(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** Quotes a line for an error message, cut to 120 characters. */
function quote(text: string): string {
  const line = text.replace(/\s+/gu, " ").trim();
  return `"${line.length <= 120 ? line : `${line.slice(0, 119)}…`}"`;
}

/** The canonical spelling of a verb (any case), or null for an unknown one. */
export function canonicalVerb(verb: string): QaVerb | null {
  const folded = verb.toLowerCase();
  return qaVerbs.find((known) => known.toLowerCase() === folded) ?? null;
}

/** The first action on a line: where it starts and ends, its verb as written and its argument. */
type FoundAction =
  | { kind: "action"; start: number; end: number; verb: string; argument: string }
  | { kind: "unclosed"; start: number; verb: string };

/**
 * The first `Verb[argument]` of a line. The argument ends at the `]` that
 * balances its `[` (`Finish[a [b]]` → `a [b]`; `Search[A], Search[B]` → `A`);
 * when nothing balances it, at the line's last `]` (the reference's greedy
 * regex); with no `]` at all the action is `unclosed`. Null when no word is
 * followed by `[`.
 */
export function findFirstAction(line: string): FoundAction | null {
  actionStart.lastIndex = 0;
  const match = actionStart.exec(line);
  if (match === null) return null;
  const verb = match[1] ?? match[2] ?? "";
  const open = match.index + match[0].length - 1;
  let depth = 0;
  for (let index = open; index < line.length; index += 1) {
    const char = line[index];
    if (char === "[") depth += 1;
    else if (char === "]") {
      depth -= 1;
      if (depth === 0) return { kind: "action", start: match.index, end: index + 1, verb, argument: line.slice(open + 1, index) };
    }
  }
  const last = line.lastIndexOf("]");
  if (last > open) return { kind: "action", start: match.index, end: last + 1, verb, argument: line.slice(open + 1, last) };
  return { kind: "unclosed", start: match.index, verb };
}

interface LabelMatch {
  start: number;
  end: number;
}

function findActionLabel(line: string): LabelMatch | null {
  const atStart = actionLabelAtLineStart.exec(line);
  if (atStart) return { start: 0, end: atStart[0].length };
  const inline = numberedActionLabelInline.exec(line) ?? bareActionLabelInline.exec(line);
  if (inline) return { start: inline.index, end: inline.index + inline[0].length };
  return null;
}

/** Removes any number of leading `Action n:` labels (`Action 3: Action 3: Search[x]`). */
function stripActionLabels(text: string): string {
  let current = text.trim();
  for (;;) {
    const match = actionLabelAtLineStart.exec(current);
    if (!match) return current;
    current = current.slice(match[0].length).trim();
  }
}

/** Drops wrapping backticks, `**` and quotes from a line that holds no action. */
function unwrap(text: string): string {
  let current = text.trim();
  for (;;) {
    const inner = unwrapOnce(current);
    if (inner === null) return current;
    current = inner.trim();
  }
}

/** Drops one pair of quotes around an `Action Input` value. */
function unquoteInput(text: string): string {
  const trimmed = text.trim();
  const match = /^(["'`“‘])(.*)(["'`”’])$/su.exec(trimmed);
  return match ? (match[2] ?? "").trim() : trimmed;
}

/** Strips `Thought n:` labels and makes the thought one line. */
function oneLineThought(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(thoughtLabel, ""))
    .join(" ")
    .replace(/\s+/gu, " ")
    .trim();
}

/** The thought before the action, cut at an invented `Observation` (which is returned as ignored). */
function readThought(text: string): { thought: string; ignored: string } {
  const invented = observationLabel.exec(text);
  if (invented === null) return { thought: oneLineThought(text), ignored: "" };
  return { thought: oneLineThought(text.slice(0, invented.index)), ignored: text.slice(invented.index).trim() };
}

/** What the reader made of one action line. */
interface ActionLineReading {
  /** The action as written (`search [Dunmere]`), composed for an `Action Input` pair, or the cleaned line when it holds no action. */
  actionText: string;
  /** Text on the line before and after the action worth reporting. */
  ignored: string[];
  /** True when the next line (an `Action Input:` line) was used too. */
  usedNextLine: boolean;
}

/**
 * Reads the action on an action line (its label already removed): the first
 * `Verb[argument]`, with what precedes and follows it on the line as ignored;
 * an `Action:` / `Action Input:` pair (`next` is the following non-empty line);
 * or, with neither, the line itself without wrapping quotes or backticks.
 */
function readActionLine(rawLine: string, next: string | undefined): ActionLineReading {
  const line = stripActionLabels(rawLine).replace(listBullet, "");
  const inline = verbWithInlineInput.exec(line);
  if (inline !== null) {
    const verb = canonicalVerb(inline[1] ?? "") ?? "";
    return { actionText: `${verb}[${unquoteInput(inline[2] ?? "")}]`, ignored: [], usedNextLine: false };
  }
  const bare = bareKnownVerb.exec(line);
  if (bare !== null && next !== undefined && actionInputLabel.test(next)) {
    const verb = canonicalVerb(bare[1] ?? "") ?? "";
    return { actionText: `${verb}[${unquoteInput(next.replace(actionInputLabel, ""))}]`, ignored: [], usedNextLine: true };
  }
  const found = findFirstAction(line);
  if (found === null || found.kind === "unclosed") return { actionText: unwrap(line), ignored: [], usedNextLine: false };
  // Quotes, backticks and punctuation that only wrap or end the action are not reported with the words around it.
  const before = trimEndChars(line.slice(0, found.start), "\"'`“‘*(").trim();
  const after = line.slice(found.end).replace(/^[\s"'`”’*.,;:!?)]+/u, "").trim();
  return {
    actionText: line.slice(found.start, found.end),
    ignored: [before, after].filter(meaningful),
    usedNextLine: false,
  };
}

/**
 * True for a line that starts with an action (after quotes, backticks, `**`, a
 * list bullet), closed or not (an unclosed one is read so that its error can say so).
 */
function startsWithAction(line: string, knownVerbOnly: boolean): boolean {
  const body = stripActionLabels(line).replace(listBullet, "").replace(/^[`"'*“‘]*/u, "");
  const found = findFirstAction(body);
  if (found === null || found.start !== 0) return false;
  return !knownVerbOnly || canonicalVerb(found.verb) !== null;
}

/** The lines after the action that were dropped, for `ignored`. */
function droppedLines(lines: readonly string[]): string {
  return lines
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}

function joinIgnored(parts: readonly string[]): string | undefined {
  const kept = parts.map((part) => part.trim()).filter((part) => part !== "");
  return kept.length === 0 ? undefined : kept.join("\n");
}

/** Where an unclosed `<think>` block ends: a line that starts with an `Action` label. */
const reasoningEndsAt = actionLabelAtLineStart;

/**
 * Splits one Actor completion into its thought and its first action.
 *
 * Rules, in order:
 * 1. `\r\n` becomes `\n`; reasoning blocks (`<think>`, `<thinking>`,
 *    `<reasoning>`; an unclosed one up to the next `Action` label) are taken
 *    out into `reasoning` and never read for actions; code-fence lines
 *    (```` ``` ````, `~~~`) are dropped.
 * 2. The first `Action` label wins: at a line start (any case, number optional,
 *    markdown bold allowed) or inside a line when numbered (`… Action 2: …`)
 *    or directly followed by `Verb[`.
 *    - `thought` = the text before it, without a leading `Thought n:` label,
 *      cut at any invented `Observation` label, whitespace collapsed to one line.
 *    - `actionText` = the first `Verb[argument]` on the rest of that line
 *      (verb in any case, spaces allowed before `[`, brackets balanced), as
 *      written; or `Verb[input]` for an `Action: Verb` line followed by
 *      `Action Input: input`; or, when the line has no action, the line without
 *      its labels and wrapping quotes or backticks (the parser then explains
 *      why it is not an action). When the label ends its line, the next
 *      non-empty line is read unless it is itself a step label.
 * 3. No `Action` label: the first non-empty line when it starts with a
 *    `Verb[argument]` (the thought is then empty), else the first later line
 *    that starts with `Search[`, `Lookup[` or `Finish[` (any case; the lines
 *    before it are the thought); else the whole text is the thought and
 *    `actionText` is empty (the environment answers "Invalid Action").
 *    An action in the middle of a prose line without a label is not read.
 * 4. `ignored` = what was dropped: an invented observation before the action,
 *    words before or after the action on its line (not mere quotes or a full
 *    stop), and every later line (a second action, an invented observation,
 *    further steps). Nothing of it is executed. Absent when nothing was dropped.
 */
export function splitCompletion(text: string): StepCompletion {
  const { text: withoutReasoning, reasoning } = stripReasoning(text, reasoningEndsAt);
  const lines = withoutReasoning.split("\n").filter((line) => !codeFence.test(line));
  const withReasoning = (split: StepCompletion): StepCompletion => {
    const result: StepCompletion = { thought: split.thought, actionText: split.actionText };
    if (reasoning !== "") result.reasoning = reasoning;
    if (split.ignored !== undefined) result.ignored = split.ignored;
    return result;
  };
  const nextNonEmpty = (from: number): number => lines.findIndex((line, index) => index >= from && line.trim() !== "");

  for (const [index, line] of lines.entries()) {
    const label = findActionLabel(line);
    if (label === null) continue;
    const read = readThought([...lines.slice(0, index), line.slice(0, label.start)].join("\n"));
    let actionLine = line.slice(label.end);
    let lineIndex = index;
    if (actionLine.trim() === "") {
      const nextIndex = nextNonEmpty(index + 1);
      const next = nextIndex === -1 ? undefined : lines[nextIndex];
      if (next === undefined || anyLabelAtLineStart.test(next)) {
        return withReasoning({ thought: read.thought, actionText: "", ignored: joinIgnored([read.ignored, droppedLines(lines.slice(index + 1))]) });
      }
      actionLine = next;
      lineIndex = nextIndex;
    }
    const followingIndex = nextNonEmpty(lineIndex + 1);
    const reading = readActionLine(actionLine, followingIndex === -1 ? undefined : lines[followingIndex]);
    const restFrom = reading.usedNextLine ? followingIndex + 1 : lineIndex + 1;
    return withReasoning({
      thought: read.thought,
      actionText: reading.actionText,
      ignored: joinIgnored([read.ignored, ...reading.ignored, droppedLines(lines.slice(restFrom))]),
    });
  }

  const firstIndex = nextNonEmpty(0);
  if (firstIndex === -1) return withReasoning({ thought: "", actionText: "" });
  const actionIndex = startsWithAction(lines[firstIndex] ?? "", false)
    ? firstIndex
    : lines.findIndex((line, index) => index > firstIndex && startsWithAction(line, true));
  if (actionIndex === -1) {
    const read = readThought(lines.join("\n"));
    return withReasoning({ thought: read.thought, actionText: "", ignored: joinIgnored([read.ignored]) });
  }
  const read = readThought(lines.slice(0, actionIndex).join("\n"));
  const followingIndex = nextNonEmpty(actionIndex + 1);
  const reading = readActionLine(lines[actionIndex] ?? "", followingIndex === -1 ? undefined : lines[followingIndex]);
  const restFrom = reading.usedNextLine ? followingIndex + 1 : actionIndex + 1;
  return withReasoning({
    thought: read.thought,
    actionText: reading.actionText,
    ignored: joinIgnored([read.ignored, ...reading.ignored, droppedLines(lines.slice(restFrom))]),
  });
}

/**
 * Parses an action line into `{ type, argument }`. It reads the text as
 * {@link splitCompletion} reads a completion (so a person's action, or a line
 * with a label, quotes, a trailing sentence or a second action, reads the same
 * way), then checks the first action: the verb, in any case, must be Search,
 * Lookup or Finish (recorded in that spelling: ReAct's own notebook writes
 * `search[...]`, reference §6), and the argument, trimmed, must not be empty.
 * Brackets in the argument balance (`Finish[a [b]]` → `a [b]`).
 *
 * Returns `{ ok: false, error }` (never throws) when the text is empty, holds
 * no `Verb[argument]`, leaves its bracket open, has a blank argument or an
 * unknown verb; the error quotes the offending text and lists the valid forms,
 * and the environment answers with the reference's "Invalid Action"
 * observation. `text` is the trimmed input; `ignored` what was read past.
 */
export function parseAction(actionText: string): ActionParse {
  const text = actionText.trim();
  const split = splitCompletion(text);
  const action = split.actionText;
  const offending = action !== "" ? action : split.thought !== "" ? split.thought : stripActionLabels(text);
  if (offending === "") {
    return { ok: false, error: `The action is empty: expected one of ${QA_ACTION_FORMS}.`, text };
  }
  const found = action === "" ? null : findFirstAction(action);
  if (found === null) {
    return { ok: false, error: `Could not read ${quote(offending)} as an action: expected Verb[argument], one of ${QA_ACTION_FORMS}.`, text };
  }
  if (found.kind === "unclosed") {
    return {
      ok: false,
      error: `Could not read ${quote(offending)} as an action: the "]" that closes the argument is missing. Expected Verb[argument], one of ${QA_ACTION_FORMS}.`,
      text,
    };
  }
  const verb = canonicalVerb(found.verb);
  if (verb === null) {
    return { ok: false, error: `Unknown action "${found.verb}" in ${quote(action)}: valid actions are Search[<entity>], Lookup[<keyword>] and Finish[<answer>].`, text };
  }
  const argument = found.argument.trim();
  if (argument === "") {
    return { ok: false, error: `${quote(action)} needs a non-empty argument: expected Verb[argument], one of ${QA_ACTION_FORMS}.`, text };
  }
  const ignored = joinIgnored([split.thought, split.ignored ?? ""]);
  return ignored === undefined ? { ok: true, action: { type: verb, argument }, text } : { ok: true, action: { type: verb, argument }, text, ignored };
}

/**
 * The action as the loop rules quote and compare it: `Verb[argument]` in the
 * canonical spelling when it parses, else the text on one line.
 */
export function displayAction(actionText: string): string {
  const parsed = parseAction(actionText);
  if (parsed.ok) return `${parsed.action.type}[${parsed.action.argument.replace(/\s+/gu, " ")}]`;
  return actionText.replace(/\s+/gu, " ").trim();
}
