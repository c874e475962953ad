/**
 * Recognises a provider's "the prompt is longer than the context window"
 * reply and reads the numbers it gives. Shared by the model layer (which
 * classifies the error as `context-length`, lib/llm/model-call-errors.ts) and
 * the engine (which shrinks the prompt to the limit once and retries,
 * lib/engine/model-calls.ts). Wordings, as the providers send them:
 *
 * - OpenAI (HTTP 400, `code: "context_length_exceeded"`): "This model's maximum
 *   context length is 4097 tokens. However, your messages resulted in 9812
 *   tokens. Please reduce the length of the messages." — or "… you requested
 *   9812 tokens (8812 in the messages, 1000 in the completion)"; the Responses
 *   API: "Your input exceeds the context window of this model."
 * - Anthropic (HTTP 400, `invalid_request_error`): "prompt is too long: 215234
 *   tokens > 200000 maximum"; "input length and `max_tokens` exceed context
 *   limit: 197000 + 8192 > 200000".
 * - vLLM: the OpenAI wording, or "… maximum context length is 4096 tokens and
 *   your request has 3500 input tokens", or "The decoder prompt (length 5000)
 *   is longer than the maximum model length of 4096".
 * - llama.cpp server (`exceed_context_size_error`, with `n_prompt_tokens` and
 *   `n_ctx`): "the request exceeds the available context size, try increasing
 *   it"; older: "Input prompt is too big compared to the context size".
 * - LM Studio: "… the model is loaded with context length of only 4096 tokens, which is not enough".
 */

/** The numbers a context-length error gave (tokens, the provider's count); null when it did not say. */
export interface ContextLengthLimit {
  /** The model's window as the provider states it. */
  maxTokens: number | null;
  /** The prompt's size by the provider's count (without the completion, when the provider splits them). */
  promptTokens: number | null;
}

const RECOGNISE: readonly RegExp[] = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /exceeds the context window/i,
  /prompt is too long/i,
  /exceed(?:s|ed)? (?:the )?context (?:limit|window|size)/i,
  /exceed_context_size_error/i,
  /available context size/i,
  /too big compared to the context size/i,
  /longer than the maximum model length/i,
  /context length of only/i,
  /input length exceeds (?:the )?maximum context length/i,
];

const toInt = (digits: string | undefined): number | null => {
  if (digits === undefined) return null;
  const value = Number(digits.replace(/,/g, ""));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
};

function firstNumber(text: string, patterns: readonly RegExp[]): number | null {
  for (const pattern of patterns) {
    const value = toInt(pattern.exec(text)?.[1]);
    if (value !== null) return value;
  }
  return null;
}

const MAX_PATTERNS: readonly RegExp[] = [
  /maximum context length is ([\d,]+)/i,
  /tokens > ([\d,]+) maximum/i,
  /context limit: [\d,]+ \+ [\d,]+ > ([\d,]+)/i,
  /maximum model length of ([\d,]+)/i,
  /context length of only ([\d,]+)/i,
  /"n_ctx"\s*:\s*(\d+)/i,
];

const PROMPT_PATTERNS: readonly RegExp[] = [
  /resulted in ([\d,]+) tokens/i,
  /\(([\d,]+) in the messages/i,
  /prompt is too long: ([\d,]+) tokens/i,
  /context limit: ([\d,]+) \+/i,
  /your request has ([\d,]+) input tokens/i,
  /decoder prompt \(length ([\d,]+)\)/i,
  /"n_prompt_tokens"\s*:\s*(\d+)/i,
  /keep the first ([\d,]+) tokens/i,
];

/** True when `text` (an error's message and body) says the prompt does not fit the model's context window. */
export function isContextLengthText(text: string): boolean {
  return RECOGNISE.some((pattern) => pattern.test(text));
}

/** The limit and prompt size a context-length error states, or null when `text` is not one. */
export function readContextLengthError(text: string): ContextLengthLimit | null {
  if (!isContextLengthText(text)) return null;
  return { maxTokens: firstNumber(text, MAX_PATTERNS), promptTokens: firstNumber(text, PROMPT_PATTERNS) };
}
