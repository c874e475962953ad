import type { ActionParse, StepCompletion } from "@/lib/domain/environment";

/**
 * The household command grammar: ALFWorld's commands as the ReAct/Reflexion
 * few-shot transcripts use them (reference §3.3; alfworld-alfred.twl2 action
 * templates, with the transcripts' `put X in/on Y` in place of the grammar
 * file's later `move X to Y`), plus ReAct's `think: …`. Both functions here are
 * total: they never throw.
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

/** Lowercases and collapses whitespace: ALFWorld's names and verbs are lowercase words. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

const withTool = /^(heat|cool|clean|slice) (.+?) with (.+)$/;

/**
 * Parses one command. `think:` keeps its text as written (trimmed); everything
 * else is matched after {@link cleanActionLine}, lowercasing and collapsing
 * whitespace. `put` needs the literal `in/on`, as in the ALFWorld version of the
 * paper (`put X in Y` is not a command there). Returns an error message when the
 * text has none of the command shapes.
 */
export function parseHouseholdCommand(text: string): { ok: true; command: HouseholdCommand } | { ok: false; error: string } {
  const line = cleanActionLine(text);
  const think = /^think\s*:/i.exec(line);
  if (think !== null) return { ok: true, command: { verb: "think", text: line.slice(think[0].length).trim() } };
  const command = normalise(line);
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

/**
 * The family's total action parser: `{ ok: true, action: { type: verb, argument } }`
 * for a command of the grammar, else `{ ok: false, error }` (the world then
 * answers "Nothing happens.", as ALFWorld does for any unknown command). `text`
 * is the cleaned line. Whether the named things exist is the world's business.
 */
export function parseAction(actionText: string): ActionParse {
  const text = cleanActionLine(actionText);
  const parsed = parseHouseholdCommand(text);
  if (!parsed.ok) return { ok: false, error: parsed.error, text };
  return { ok: true, action: describeCommand(parsed.command), text };
}

/**
 * Splits one Actor completion: the first non-empty line is the action, without a
 * leading `>` and surrounding whitespace; anything after it is dropped (the
 * Actor is stopped at the first newline, reference §3.4). There is no separate
 * thought: reasoning is the action `think: …`.
 */
export function splitCompletion(completion: string): StepCompletion {
  const line = completion
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map(cleanActionLine)
    .find((candidate) => candidate !== "");
  return { thought: "", actionText: line ?? "" };
}
