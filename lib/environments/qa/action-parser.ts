import type { ActionParse, StepCompletion } from "@/lib/domain/environment";

/**
 * Reading the Actor's completion for one ReAct step (Thought → Action) and
 * parsing its action. Both functions are total: they never throw.
 *
 * The expected completion for step n (the prompt ends with `Thought n:`) is
 * `<thought>\nAction n: <Verb>[<argument>]`. Chat models break this protocol
 * (shared/docs/reflexion-reference.md §2.3, §11 item 3): they repeat labels,
 * write several steps, invent observations, wrap everything in code fences or
 * drop the labels. Only the first action is ever executed.
 */

/** The QA family's action verbs, case-sensitive as in the reference (`hotpotqa_runs/agents.py`). */
export const qaVerbs = ["Search", "Lookup", "Finish"] as const;
/** One of {@link qaVerbs}. */
export type QaVerb = (typeof qaVerbs)[number];

/** `Action`, `Action 3`, `**Action 3:**`, … at the start of a line (any case). */
const actionLabelAtLineStart = /^[ \t]*[*_]*[ \t]*action(?:[ \t]*\d+)?[ \t]*[*_]*[ \t]*:[*_]*/i;
/** `Action 3:` inside a line (capitalised, numbered), e.g. `I will search it. Action 3: Search[x]`. */
const numberedActionLabelInline = /(?<![\p{L}\p{N}_])Action[ \t]*\d+[ \t]*[*_]*:[*_]*/u;
/** `Action:` inside a line, only when a `Verb[` follows it. */
const bareActionLabelInline = /(?<![\p{L}\p{N}_])Action[ \t]*[*_]*:[*_]*(?=[ \t]*`?\w+\[)/u;
/** A leading `Thought n:` label (any case, optional number and markdown emphasis). */
const thoughtLabel = /^[ \t]*[*_]*[ \t]*thought(?:[ \t]*\d+)?[ \t]*[*_]*[ \t]*:[*_]*[ \t]*/i;
/** A line that starts with any step label. */
const anyLabelAtLineStart = /^[ \t]*[*_]*[ \t]*(?:thought|action|observation)(?:[ \t]*\d+)?[ \t]*[*_]*[ \t]*:/i;
/** An `Observation` label at a line start, or numbered inside a line: where invented text begins. */
const observationLabel = /(?:^|\n)[ \t]*[*_]*[ \t]*observation(?:[ \t]*\d+)?[ \t]*[*_]*[ \t]*:|(?<![\p{L}\p{N}_])Observation[ \t]*\d+[ \t]*:/iu;
/** Another step's label after the action on the same line (`… Search[x] Observation 1: …`). */
const trailingLabelInline = /\s+[*_]*(?:Thought|Action|Observation)(?:[ \t]*\d+)?[ \t]*[*_]*:/gu;
/** A line holding only a code fence (```, ```text, ~~~). */
const codeFence = /^[ \t]*(?:```|~~~)[\w-]*[ \t]*$/;
/** The reference's action regex: word characters, `[`, a greedy argument, `]`, anchored. */
const actionPattern = /^(\w+)\[(.+)\]$/;
/** A bare action line with a known verb (used when a completion has no Action label). */
const knownVerbLine = /^(?:Search|Lookup|Finish)\[.+\]$/;

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

/** Cleans the text of one action line: labels, trailing invented steps, inline-code and bold markers. */
function cleanActionLine(line: string): string {
  let text = stripActionLabels(line);
  // Cut only after a closing bracket, so a label-like word inside an argument survives.
  for (const trailing of text.matchAll(trailingLabelInline)) {
    if (/\][`*]*$/.test(text.slice(0, trailing.index).trimEnd())) {
      text = text.slice(0, trailing.index);
      break;
    }
  }
  text = text.trim();
  for (const marker of ["`", "**"]) {
    while (text.startsWith(marker) && text.endsWith(marker) && text.length >= marker.length * 2) {
      text = text.slice(marker.length, text.length - marker.length).trim();
    }
  }
  return text;
}

/** Strips `Thought n:` labels, drops any invented observation, and makes the thought one line. */
function cleanThought(text: string): string {
  const invented = observationLabel.exec(text);
  const kept = invented ? text.slice(0, invented.index) : text;
  return kept
    .split("\n")
    .map((line) => line.replace(thoughtLabel, ""))
    .join(" ")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * Splits one Actor completion into its thought and its first action.
 *
 * Rules, in order:
 * 1. `\r\n` becomes `\n`; code-fence lines (```` ``` ````, `~~~`) are dropped.
 * 2. The first `Action` label wins: at a line start (any case, number optional,
 *    markdown bold allowed) or inside a line when numbered (`… Action 2: …`)
 *    or directly followed by `Verb[`.
 *    - `thought` = the text before it, without a leading `Thought n:` label, cut
 *      at any invented `Observation` label, whitespace collapsed to one line.
 *    - `actionText` = the rest of that line, without repeated `Action n:` labels,
 *      cut where another step label starts on the same line, without wrapping
 *      backticks or `**`. When the label ends its line, the next non-empty line
 *      is used unless it is itself a step label.
 *    Everything after the first action is dropped (never executed).
 * 3. No `Action` label: when the first non-empty line looks like `Verb[arg]` it is
 *    the action and the thought is empty; otherwise the first later line that is
 *    exactly `Search[…]`, `Lookup[…]` or `Finish[…]` is the action and the lines
 *    before it the thought; otherwise the whole text is the thought and
 *    `actionText` is empty (the environment answers with "Invalid Action").
 */
export function splitCompletion(text: string): StepCompletion {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .filter((line) => !codeFence.test(line));

  for (const [index, line] of lines.entries()) {
    const label = findActionLabel(line);
    if (label === null) continue;
    const thought = cleanThought([...lines.slice(0, index), line.slice(0, label.start)].join("\n"));
    let actionText = cleanActionLine(line.slice(label.end));
    if (actionText === "") {
      const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== "");
      if (next !== undefined && !anyLabelAtLineStart.test(next)) actionText = cleanActionLine(next);
    }
    return { thought, actionText };
  }

  const firstIndex = lines.findIndex((line) => line.trim() !== "");
  if (firstIndex === -1) return { thought: "", actionText: "" };
  const first = cleanActionLine(lines[firstIndex] ?? "");
  if (actionPattern.test(first)) return { thought: "", actionText: first };

  for (let index = firstIndex + 1; index < lines.length; index += 1) {
    const candidate = cleanActionLine(lines[index] ?? "");
    if (knownVerbLine.test(candidate)) {
      return { thought: cleanThought(lines.slice(0, index).join("\n")), actionText: candidate };
    }
  }
  return { thought: cleanThought(lines.join("\n")), actionText: "" };
}

/**
 * Parses an action line with the reference's regex `^(\w+)\[(.+)\]$` (greedy
 * argument: `Finish[a [b]]` → `a [b]`) on the trimmed text, after removing any
 * leading `Action n:` labels. The argument is trimmed. Verbs are case-sensitive.
 *
 * Returns `{ ok: false, error }` (never throws) when the text is empty, does not
 * have the `Verb[argument]` shape, has a blank argument, or uses a verb other than
 * Search, Lookup, Finish; the environment answers such actions with the
 * reference's "Invalid Action" observation. `text` is the trimmed input.
 */
export function parseAction(actionText: string): ActionParse {
  const text = actionText.trim();
  const body = stripActionLabels(text);
  if (body === "") {
    return { ok: false, error: "The action is empty: expected Search[<entity>], Lookup[<keyword>] or Finish[<answer>].", text };
  }
  const match = actionPattern.exec(body);
  if (!match) {
    return { ok: false, error: `Could not read "${body}" as an action of the form Verb[argument].`, text };
  }
  const verb = match[1] ?? "";
  const argument = (match[2] ?? "").trim();
  if (!(qaVerbs as readonly string[]).includes(verb)) {
    return { ok: false, error: `Unknown action "${verb}": valid actions are Search, Lookup and Finish (case-sensitive).`, text };
  }
  if (argument === "") {
    return { ok: false, error: `${verb}[...] needs a non-empty argument.`, text };
  }
  return { ok: true, action: { type: verb, argument }, text };
}
