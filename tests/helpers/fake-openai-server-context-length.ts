import type { FakeFailure } from "./fake-openai-server";

/**
 * The context-length replies of the fake OpenAI-compatible server
 * (./fake-openai-server.ts re-exports them): what a provider sends when the
 * prompt is longer than the model's context window, in each provider's words
 * (the shapes lib/domain/context-length.ts recognises).
 */

/** Whose wording a {@link contextLengthFailure} uses. */
export type ContextLengthWording = "openai" | "anthropic" | "vllm" | "llamacpp";

/**
 * A provider's "prompt longer than the context window" reply (HTTP 400), as
 * the provider words it, with the window `max` and the prompt's size `actual` (tokens):
 * - `openai`: `code: "context_length_exceeded"`, "This model's maximum context length is N tokens. However, your messages resulted in M tokens. …";
 *   with `completion` (the request's max tokens): "… However, you requested M+C tokens (M in the messages, C in the completion). …"
 * - `anthropic`: `type: "invalid_request_error"`, "prompt is too long: M tokens > N maximum"
 * - `vllm`: "This model's maximum context length is N tokens. However, you requested M tokens (M−256 in the messages, 256 in the completion). …"
 * - `llamacpp`: `type: "exceed_context_size_error"`, "the request exceeds the available context size, try increasing it", with `n_prompt_tokens` and `n_ctx`
 */
export function contextLengthFailure(max: number, actual: number, wording: ContextLengthWording = "openai", completion?: number): FakeFailure {
  switch (wording) {
    case "openai":
      return {
        status: 400,
        code: "context_length_exceeded",
        type: "invalid_request_error",
        param: "messages",
        message:
          completion === undefined
            ? `This model's maximum context length is ${max} tokens. However, your messages resulted in ${actual} tokens. Please reduce the length of the messages.`
            : `This model's maximum context length is ${max} tokens. However, you requested ${actual + completion} tokens (${actual} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
        retryAfterMs: null,
      };
    case "anthropic":
      return { status: 400, type: "invalid_request_error", code: "invalid_request_error", message: `prompt is too long: ${actual} tokens > ${max} maximum`, retryAfterMs: null };
    case "vllm":
      return {
        status: 400,
        type: "BadRequestError",
        code: "400",
        message: `This model's maximum context length is ${max} tokens. However, you requested ${actual} tokens (${Math.max(0, actual - 256)} in the messages, 256 in the completion). Please reduce the length of the messages or completion.`,
        retryAfterMs: null,
      };
    case "llamacpp":
      return {
        status: 400,
        type: "exceed_context_size_error",
        code: "400",
        message: "the request exceeds the available context size, try increasing it",
        extra: { n_prompt_tokens: actual, n_ctx: max },
        retryAfterMs: null,
      };
  }
}
