// The one tokenizer-free token estimate. Plain arithmetic with no imports, so browser code may use
// it: lib/domain/tokenizer.ts loads the encodings through node:module and must never reach a
// component (`next build` fails on it).

/**
 * Characters per token of the estimate: the usual rule of thumb for English with GPT-style
 * tokenizers (o200k_base counts ~4.5, Claude's and SentencePiece tokenizers fewer, so 4 errs high).
 */
export const CHARS_PER_TOKEN = 4;

/**
 * Estimated tokens of a text of `chars` characters: `ceil(chars / 4)`.
 *
 * @param chars a length in UTF-16 code units (`text.length`), ≥ 0.
 * @returns tokens (estimated), 0 for 0 characters.
 */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * Estimated tokens of a text: `ceil(text.length / 4)` ({@link tokensForChars}). Used where no
 * tokenizer may or need be loaded: the demo model's reported usage (the "chars/4" tokenizer of
 * lib/domain/tokenizer.ts), the floor of prompt budgets, the memory panel's figure in the browser,
 * the rate limiter's reservation before a call. Real providers report real counts.
 *
 * @param text any text; counted in UTF-16 code units.
 * @returns tokens (estimated), 0 for the empty string.
 */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}
