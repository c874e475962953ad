/**
 * Approximate token count of a text: `ceil(chars / 4)`, the usual rule of
 * thumb for English with GPT-style tokenizers. An estimate only (used by the
 * demo model, which has no tokenizer); real providers report real counts.
 *
 * @param text - any text; counted in UTF-16 code units.
 * @returns tokens (estimated), 0 for the empty string.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
