/**
 * Reasoning blocks in a completion: `<think>…</think>`, `<thinking>…</thinking>`
 * and `<reasoning>…</reasoning>`, as reasoning models (DeepSeek-R1, Qwen3, …)
 * and models told to "think first" write them. The action readers of the QA and
 * household families take them out before they look for an action, so an action
 * written inside one is never executed, and they keep them apart (the step's
 * `reasoning`), so they never reach a later prompt: the scratchpad renderers
 * only use the thought, the action and the observation texts.
 *
 * Family-agnostic; it lives beside the QA reader and the household reader uses
 * it too (docs/decisions/0014-action-readers-and-loops.md).
 */

/** The tag names that open or close a reasoning block (any case). */
export const REASONING_TAGS = ["think", "thinking", "reasoning"] as const;

// Attributes stop at a `<` too: otherwise every `<think` of a long line without `>` would rescan the rest of the line.
const opening = /<[ \t]*(?:think|thinking|reasoning)(?:[ \t][^<>\n]*)?>/iu;
const closing = /<\/[ \t]*(?:think|thinking|reasoning)[ \t]*>/iu;

/** A completion with its reasoning blocks taken out. */
export interface ReasoningSplit {
  /** The completion without the blocks (each block replaced by a line break, so the lines around it stay apart). */
  text: string;
  /** The blocks' contents, trimmed, in order, separated by a blank line; `""` when there were none. */
  reasoning: string;
}

/**
 * Takes the reasoning blocks out of `completion`. Rules, in order:
 * 1. A closing tag before any opening one (the opening tag was in the prompt's
 *    chat template, as served by some local runtimes): everything before it is reasoning.
 * 2. Each opening tag up to the next closing tag (of any of the three names) is a block.
 * 3. An opening tag that is never closed runs up to the first line that
 *    `actionLabel` matches at its start (its label stays in the text), or to
 *    the end of the completion when there is none.
 * Stray closing tags left over are dropped. Never throws.
 *
 * @param actionLabel where an unclosed block ends: a regex tested at the start
 *   of each line (without the `g` or `y` flag), e.g. the QA family's `Action n:` label.
 */
export function stripReasoning(completion: string, actionLabel: RegExp): ReasoningSplit {
  // One pass: each search starts where the last one ended (lastIndex), and a closing tag looked
  // for in vain is not looked for again (none can come later either), so hostile input such as
  // thousands of unclosed `<think>` tags is read in linear time.
  const source = completion.replace(/\r\n?/g, "\n");
  const openingAt = new RegExp(opening.source, "giu");
  const closingAt = new RegExp(closing.source, "giu");
  const find = (pattern: RegExp, from: number) => {
    pattern.lastIndex = from;
    return pattern.exec(source);
  };
  const parts: string[] = [];
  let out = "";
  let position = 0;
  /** What stands for the block just taken out: a line break, so the lines around it stay apart. */
  let lead = "";
  let noClosingAfter = Number.POSITIVE_INFINITY;

  const firstClose = find(closingAt, 0);
  const firstOpen = find(openingAt, 0);
  if (firstClose !== null && (firstOpen === null || firstClose.index < firstOpen.index)) {
    parts.push(source.slice(0, firstClose.index));
    position = firstClose.index + firstClose[0].length;
    lead = "\n";
  }

  for (;;) {
    const open = find(openingAt, position);
    if (open === null) {
      out += lead + source.slice(position);
      break;
    }
    out += lead + source.slice(position, open.index) + "\n";
    const inside = open.index + open[0].length;
    const close = inside >= noClosingAfter ? null : find(closingAt, inside);
    if (close !== null) {
      parts.push(source.slice(inside, close.index));
      position = close.index + close[0].length;
      lead = "\n";
      continue;
    }
    noClosingAfter = Math.min(noClosingAfter, inside);
    const end = labelLineStart(source, inside, actionLabel);
    parts.push(source.slice(inside, end === -1 ? source.length : end));
    position = end === -1 ? source.length : end;
    lead = "";
  }

  const text = out.replace(new RegExp(closing.source, "giu"), "\n");
  const reasoning = parts
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .join("\n\n");
  return { text, reasoning };
}

/**
 * Index in `text` of the first line after the one holding `from` (which continues the tag's line)
 * that starts with `label`; -1 if none. Reads only as far as that line.
 */
function labelLineStart(text: string, from: number, label: RegExp): number {
  let lineStart = text.indexOf("\n", from);
  while (lineStart !== -1) {
    const start = lineStart + 1;
    const next = text.indexOf("\n", start);
    if (label.test(text.slice(start, next === -1 ? text.length : next))) return start;
    lineStart = next;
  }
  return -1;
}
