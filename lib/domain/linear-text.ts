/**
 * Small text scans over model output that a regular expression would do in
 * quadratic time on hostile input (a pattern unanchored on the left that ends
 * in `$`, or a lazy `[\s\S]*?` up to a closing tag that never comes, retried at
 * every opening tag). Each function here is one pass over its input: a reply
 * of 256 KiB (the output limit, lib/llm/output-limit.ts) is read in
 * milliseconds, whatever it holds. Pure; shared by the readers of every family.
 */

const isWhite = (char: string): boolean => /\s/u.test(char);

/**
 * `text` without its trailing characters that are in `chars` (and white space when `whitespace`):
 * what `text.replace(/[<chars>\s]+$/u, "")` returns, in one backward pass.
 */
export function trimEndChars(text: string, chars: string, whitespace = true): string {
  let end = text.length;
  while (end > 0) {
    const char = text.charAt(end - 1);
    if (!chars.includes(char) && !(whitespace && isWhite(char))) break;
    end -= 1;
  }
  return text.slice(0, end);
}

/**
 * `text` without one trailing run of backticks, else a trailing `**`, else one trailing character of
 * `quotes`: what `text.replace(/(?:`+|\*\*|[<quotes>])$/u, "")` returns, without its quadratic
 * retries on a long run of backticks.
 */
export function dropClosingMark(text: string, quotes: string): string {
  let end = text.length;
  if (text.endsWith("`")) {
    while (end > 0 && text.charAt(end - 1) === "`") end -= 1;
    return text.slice(0, end);
  }
  if (text.endsWith("**")) return text.slice(0, -2);
  return end > 0 && quotes.includes(text.charAt(end - 1)) ? text.slice(0, -1) : text;
}

/**
 * One layer of wrapping taken off `text`, or null when it is not wrapped: the result of
 * `/^(`+|\*\*|"|'|“|‘)(.*)(`+|\*\*|"|'|”|’)$/su.exec(text)?.[2]` — an opening run of backticks
 * (as long as it can be while leaving the closing mark), `**` or an opening quote; a closing
 * backtick or quote (one character), else `**`. Constant work besides the backtick run.
 */
export function unwrapOnce(text: string): string | null {
  if (text.length < 2) return null;
  const last = text.charAt(text.length - 1);
  const closeLength = "`\"'”’".includes(last) ? 1 : text.endsWith("**") ? 2 : 0;
  if (closeLength === 0) return null;
  const limit = text.length - closeLength;
  let openLength = 0;
  if (text.charAt(0) === "`") {
    while (openLength < limit && text.charAt(openLength) === "`") openLength += 1;
  } else if (text.startsWith("**")) {
    openLength = limit >= 2 ? 2 : 0;
  } else if ("\"'“‘".includes(text.charAt(0))) {
    openLength = limit >= 1 ? 1 : 0;
  }
  return openLength === 0 ? null : text.slice(openLength, limit);
}

/** Reasoning blocks taken out of a text: what is left, and each block's content in order. */
export interface TaggedBlocks {
  text: string;
  blocks: string[];
}

const OPENING_TAG = /<(think|thinking|reasoning)>/gi;

/**
 * Takes out every `<think>…</think>` (`thinking`, `reasoning`; any case, closed by the same name):
 * what `text.replace(/<(think|thinking|reasoning)>([\s\S]*?)<\/\1>/gi, "")` and its `matchAll`
 * give. The regex looks for a closing tag from every opening one, to the end of the text when
 * there is none; here a name found unclosed once is not looked for again (no closing tag can
 * come after a later opening one either), so the scan stays linear.
 */
export function takeTaggedBlocks(text: string): TaggedBlocks {
  const opening = new RegExp(OPENING_TAG.source, OPENING_TAG.flags);
  const unclosed = new Set<string>();
  const blocks: string[] = [];
  let out = "";
  let from = 0;
  for (let match = opening.exec(text); match !== null; match = opening.exec(text)) {
    const name = (match[1] ?? "").toLowerCase();
    if (unclosed.has(name)) continue;
    const contentStart = match.index + match[0].length;
    const closing = new RegExp(`</${name}>`, "gi");
    closing.lastIndex = contentStart;
    const close = closing.exec(text);
    if (close === null) {
      unclosed.add(name);
      continue;
    }
    out += text.slice(from, match.index);
    blocks.push(text.slice(contentStart, close.index));
    from = close.index + close[0].length;
    opening.lastIndex = from;
  }
  return { text: from === 0 ? text : out + text.slice(from), blocks };
}

/**
 * The first `word` label at a line start: `word`, optional white space and digits, then `:`, with
 * only white space (line breaks included) between it and the previous line break (or the start of
 * the text when `atStart`). Returns where the match of `/(^|\n)\s*word\s*\d*\s*:/i` (`atStart`) or
 * `/\n\s*word\s*\d*\s*:/i` would start and end, or null. `word` is matched case-insensitively and
 * must be plain letters. Linear: each occurrence of `word` is checked by a scan of the white space
 * before it and of the label after it, and those stretches do not overlap.
 */
export function findLineLabel(text: string, word: string, atStart: boolean): { index: number; end: number } | null {
  const occurrences = new RegExp(word, "gi");
  for (let match = occurrences.exec(text); match !== null; match = occurrences.exec(text)) {
    // The label after the word: white space, digits, white space, then a colon.
    let after = match.index + match[0].length;
    while (after < text.length && isWhite(text.charAt(after))) after += 1;
    while (after < text.length && text.charCodeAt(after) >= 48 && text.charCodeAt(after) <= 57) after += 1;
    while (after < text.length && isWhite(text.charAt(after))) after += 1;
    if (text.charAt(after) !== ":") continue;
    // Only white space before it back to a line break (the leftmost one in that stretch), or the start.
    let before = match.index;
    let lineBreak = -1;
    while (before > 0 && isWhite(text.charAt(before - 1))) {
      before -= 1;
      if (text.charAt(before) === "\n") lineBreak = before;
    }
    if (atStart && before === 0) return { index: 0, end: after + 1 };
    if (lineBreak !== -1) return { index: lineBreak, end: after + 1 };
  }
  return null;
}

/** Folds every run of white space that holds a line break into one space (what replacing `\s*\n+\s*` with a space does), in one pass. */
export function foldLineBreaks(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes("\n") ? " " : run));
}
