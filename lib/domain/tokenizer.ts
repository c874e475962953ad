import { createRequire } from "node:module";
import type { ChatMessage } from "./events";
import { isDemoModel, splitModelId } from "./model-id";
import { estimateTokens } from "./token-estimate";

/**
 * Token counts per model, with the `gpt-tokenizer` package (pure JS BPE, the
 * same ranks as OpenAI's `tiktoken`). Server and engine side only: the
 * encodings weigh a few MB, so browser code reads counts from the
 * `model-call-end` event (`contextUse`) instead of importing this module.
 *
 * | model id | tokenizer | exact |
 * |---|---|---|
 * | `openai:gpt-4o*`, `gpt-4.1*`, `gpt-5*`, `o1*`, `o3*`, `o4*`, `chatgpt-4o*`, `gpt-oss*` | `o200k_base` | yes |
 * | `openai:gpt-4`, `gpt-4-turbo*`, `gpt-4-32k*`, `gpt-3.5-turbo*` | `cl100k_base` | yes |
 * | `openai:text-davinci-002/003` (the reference's model, §2.5) | `p50k_base` | yes |
 * | other `openai:*` | `o200k_base` (OpenAI's current encoding) | no |
 * | `anthropic:*`, `compatible:*` | fallback: `o200k_base` count × 1.25, rounded up | no |
 * | `demo` | `ceil(chars / 4)`, what the demo model reports as usage | no |
 *
 * Fallback: Anthropic publishes no tokenizer for its current models (the npm
 * package `@anthropic-ai/tokenizer` is Claude 2's and its own README says it
 * is inaccurate for Claude 3 and later; the exact count needs a
 * `count_tokens` API call per prompt), and an OpenAI-compatible server may run
 * any model (Llama 3, Qwen, Mistral: 32k–150k vocabularies). So those are
 * estimated as the o200k_base count plus 25 %: a margin so that a budget
 * checked with the estimate is not overrun by a tokenizer that splits
 * English somewhat finer (SentencePiece vocabularies of 32k tokens do).
 */

/** Which tokenizer a count came from. */
export type TokenizerName = "o200k_base" | "cl100k_base" | "p50k_base" | "o200k_base+25%" | "chars/4";

/** A token count of a text or a prompt. */
export interface TokenCount {
  /** Tokens (a count). */
  tokens: number;
  tokenizer: TokenizerName;
  /** True when `tokenizer` is the model's own encoding (OpenAI models we know), false for an estimate. */
  exact: boolean;
}

type Encoding = "o200k_base" | "cl100k_base" | "p50k_base";

/**
 * Each encoding is loaded on its first use, not at import: evaluating the
 * ranks takes 0.1–0.3 s per encoding and most processes (CLI commands, tests,
 * runs with the demo model) never count a token with two of them. A
 * synchronous `require` (traced by Next's bundlers, which support
 * `createRequire(import.meta.url)`), since counting is synchronous.
 */
const load = createRequire(import.meta.url);
const loaded = new Map<Encoding, (text: string) => number>();
const SPECIFIERS: Record<Encoding, () => { countTokens: (text: string) => number }> = {
  o200k_base: () => load("gpt-tokenizer/encoding/o200k_base") as { countTokens: (text: string) => number },
  cl100k_base: () => load("gpt-tokenizer/encoding/cl100k_base") as { countTokens: (text: string) => number },
  p50k_base: () => load("gpt-tokenizer/encoding/p50k_base") as { countTokens: (text: string) => number },
};

function counter(encoding: Encoding): (text: string) => number {
  let count = loaded.get(encoding);
  if (count === undefined) {
    count = SPECIFIERS[encoding]().countTokens;
    loaded.set(encoding, count);
  }
  return count;
}

const countO200k = (text: string): number => counted(counter("o200k_base"), text);

/**
 * Longest run of non-space (or of space) characters handed to the BPE in one piece. gpt-tokenizer's
 * merge loop is quadratic in the length of one pre-tokenized piece (a run of letters with no space
 * is one piece): 64 000 × "a" takes 4 s, a 10 MB run hours. Real text has no such runs, so its
 * count is unchanged; a longer run is counted in slices of this many characters, which may differ
 * from the exact count by a token per slice, in time linear in the run.
 */
export const MAX_TOKENIZER_PIECE = 256;

/** Character classes of the scan below: 1 for white space, 0 for anything else. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0x3000 || code === 0xfeff || (code >= 0x2000 && code <= 0x200a);
}

/**
 * Counts `text` with `count`, first cutting every run of same-class characters (space or non-space)
 * longer than {@link MAX_TOKENIZER_PIECE} into slices (never inside a surrogate pair). One linear
 * scan; text without such runs is counted in one call, exactly as before.
 */
export function counted(count: (text: string) => number, text: string): number {
  let total = 0;
  let from = 0;
  let runStart = 0;
  let runSpace = text.length > 0 && isSpace(text.charCodeAt(0));
  for (let i = 0; i <= text.length; i += 1) {
    const end = i === text.length;
    const space = !end && isSpace(text.charCodeAt(i));
    if (end || space !== runSpace) {
      runStart = i;
      runSpace = space;
      continue;
    }
    if (i - runStart >= MAX_TOKENIZER_PIECE) {
      // Cut here unless it would split a surrogate pair (then one character later).
      const code = text.charCodeAt(i - 1);
      if (code >= 0xd800 && code <= 0xdbff) continue;
      total += count(text.slice(from, i));
      from = i;
      runStart = i;
    }
  }
  return from === 0 ? count(text) : total + (from < text.length ? count(text.slice(from)) : 0);
}

/**
 * Loads the encodings `modelIds` count with now rather than on their first count (0.1–0.3 s
 * each): a long-lived worker calls it before it takes jobs, so its first run does not pay for
 * it. With no ids it loads `o200k_base`, which every non-demo model except the older OpenAI
 * ones counts with (see {@link tokenizerFor}).
 */
export function preloadTokenizers(modelIds: readonly string[] = []): void {
  const encodings = modelIds.length === 0 ? ["o200k_base" as const] : modelIds.map((id) => tokenizerFor(id).tokenizer);
  for (const name of new Set(encodings)) {
    if (name === "o200k_base+25%") counter("o200k_base");
    else if (name !== "chars/4") counter(name);
  }
}

/** Model-name prefixes of OpenAI models with a known encoding; the longest matching prefix wins. */
const OPENAI_ENCODINGS: ReadonlyArray<[string, Encoding]> = [
  ["gpt-4o", "o200k_base"],
  ["chatgpt-4o", "o200k_base"],
  ["gpt-4.1", "o200k_base"],
  ["gpt-4.5", "o200k_base"],
  ["gpt-5", "o200k_base"],
  ["gpt-oss", "o200k_base"],
  ["o1", "o200k_base"],
  ["o3", "o200k_base"],
  ["o4", "o200k_base"],
  ["gpt-4", "cl100k_base"],
  ["gpt-3.5-turbo", "cl100k_base"],
  ["text-davinci-003", "p50k_base"],
  ["text-davinci-002", "p50k_base"],
];

/** The entry of `table` whose prefix is the longest one `name` starts with (case-insensitive). */
export function longestPrefixMatch<T>(table: ReadonlyArray<readonly [string, T]>, name: string): T | undefined {
  const lower = name.toLowerCase();
  let best: readonly [string, T] | undefined;
  for (const entry of table) {
    if (lower.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/** The tokenizer used for `modelId` and whether it is the model's own (see the table above). */
export function tokenizerFor(modelId: string): { tokenizer: TokenizerName; exact: boolean } {
  const { provider, model } = splitModelId(modelId);
  if (isDemoModel(modelId)) return { tokenizer: "chars/4", exact: false };
  if (provider === "openai") {
    const known = longestPrefixMatch(OPENAI_ENCODINGS, model);
    return known ? { tokenizer: known, exact: true } : { tokenizer: "o200k_base", exact: false };
  }
  return { tokenizer: "o200k_base+25%", exact: false };
}

function countWith(tokenizer: TokenizerName, text: string): number {
  if (text === "") return 0;
  switch (tokenizer) {
    case "chars/4":
      return estimateTokens(text);
    case "o200k_base+25%":
      return Math.ceil(countO200k(text) * 1.25);
    default:
      return counted(counter(tokenizer), text);
  }
}

/**
 * Tokens a chat message adds besides its content: OpenAI's rule for its chat
 * models (openai-cookbook, "How to count tokens with tiktoken": 3 per message
 * plus 1 for the role name), and 3 more once per prompt for the reply's priming.
 */
export const TOKENS_PER_MESSAGE = 4;
export const TOKENS_PER_PROMPT = 3;

/**
 * Counts the tokens of `input` for `modelId`: a text as it is, or a list of
 * chat messages as the prompt a chat API receives (contents plus
 * {@link TOKENS_PER_MESSAGE} per message and {@link TOKENS_PER_PROMPT}).
 * Never throws; unknown providers get the fallback estimate.
 */
export function countTokens(modelId: string, input: string | readonly ChatMessage[]): TokenCount {
  const { tokenizer, exact } = tokenizerFor(modelId);
  if (typeof input === "string") return { tokens: countWith(tokenizer, input), tokenizer, exact };
  let tokens = input.length === 0 ? 0 : TOKENS_PER_PROMPT;
  for (const message of input) tokens += TOKENS_PER_MESSAGE + countWith(tokenizer, message.content);
  return { tokens, tokenizer, exact };
}

/**
 * The measure of prompt budgets that do not know the model (the previous
 * trial's block, the Self-Reflection input, the observation limit): the larger
 * of the o200k_base count and `ceil(chars / 4)`, in tokens. The real count
 * decides for dense text (numbers, code, non-Latin scripts); `chars / 4` for
 * ordinary English, where o200k_base counts ~4.5 chars per token but Claude's
 * and SentencePiece tokenizers count more, so a budget holds for them too.
 */
export function budgetTokens(text: string): number {
  if (text === "") return 0;
  // Every prompt of a trial re-measures the same observations: remember them (a trial's prompts
  // would otherwise cost O(steps²) tokenizations; bench/engine.bench.ts per-event cost).
  const known = budgetMemo.get(text);
  if (known !== undefined) return known;
  const tokens = Math.max(countO200k(text), estimateTokens(text));
  if (budgetMemo.size >= BUDGET_MEMO_SIZE) budgetMemo.delete(budgetMemo.keys().next().value!);
  budgetMemo.set(text, tokens);
  return tokens;
}

/** Texts {@link budgetTokens} remembers (oldest forgotten first): a few long trials' observations. */
const BUDGET_MEMO_SIZE = 4096;
const budgetMemo = new Map<string, number>();
