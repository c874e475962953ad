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

const opening = /<[ \t]*(?:think|thinking|reasoning)(?:[ \t][^>\n]*)?>/iu;
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
  const parts: string[] = [];
  let rest = completion.replace(/\r\n?/g, "\n");
  let out = "";

  const firstClose = closing.exec(rest);
  const firstOpen = opening.exec(rest);
  if (firstClose !== null && (firstOpen === null || firstClose.index < firstOpen.index)) {
    parts.push(rest.slice(0, firstClose.index));
    rest = "\n" + rest.slice(firstClose.index + firstClose[0].length);
  }

  for (;;) {
    const open = opening.exec(rest);
    if (open === null) {
      out += rest;
      break;
    }
    out += rest.slice(0, open.index) + "\n";
    const inside = rest.slice(open.index + open[0].length);
    const close = closing.exec(inside);
    if (close !== null) {
      parts.push(inside.slice(0, close.index));
      rest = "\n" + inside.slice(close.index + close[0].length);
      continue;
    }
    const end = labelLineStart(inside, actionLabel);
    parts.push(end === -1 ? inside : inside.slice(0, end));
    rest = end === -1 ? "" : inside.slice(end);
  }

  const text = out.replace(new RegExp(closing.source, "giu"), "\n");
  const reasoning = parts
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .join("\n\n");
  return { text, reasoning };
}

/** Index of the first line of `text` (after the first, which continues the tag's line) that starts with `label`; -1 if none. */
function labelLineStart(text: string, label: RegExp): number {
  let index = 0;
  for (const line of text.split("\n")) {
    if (index > 0 && label.test(line)) return index;
    index += line.length + 1;
  }
  return -1;
}
