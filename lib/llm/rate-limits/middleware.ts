import { createHash } from "node:crypto";
import { APICallError, type LanguageModelV3Middleware, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { CallOutcome } from "./adaptive-controller";
import type { CallPermit, CallRateLimiter } from "./call-limiter";
import { findModelTimeout } from "@/lib/llm/model-timeouts";
import { estimateTokens } from "@/lib/domain/token-estimate";

/**
 * The id of an API key in limiter keys: the first 16 hex digits of its SHA-256 (never the key), or
 * `none` for a provider without one. Two lab members with different keys get different limits.
 */
export function keyIdOf(apiKey: string | undefined | null): string {
  return apiKey ? createHash("sha256").update(apiKey).digest("hex").slice(0, 16) : "none";
}

/** The limiter key of a call: `provider:model|key-id`. */
export function limiterKeyOf(modelId: string, apiKey: string | undefined | null): string {
  return `${modelId}|${keyIdOf(apiKey)}`;
}

/** Default block after a 429 without `Retry-After`, in ms. */
export const DEFAULT_429_BLOCK_MS = 2_000;

/**
 * How long a 429 asks everyone to wait, in ms: `retry-after-ms`, else `retry-after` in seconds or
 * as an HTTP date (RFC 9110 §10.2.3), else {@link DEFAULT_429_BLOCK_MS}. Capped at 10 minutes.
 */
export function retryAfterMsOf(headers: Readonly<Record<string, string | undefined>> | undefined, now = Date.now()): number {
  const cap = (ms: number) => Math.min(Math.max(0, ms), 600_000);
  const ms = headers?.["retry-after-ms"];
  if (ms !== undefined && Number.isFinite(parseFloat(ms))) return cap(parseFloat(ms));
  const after = headers?.["retry-after"];
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return cap(seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return cap(date - now);
  }
  return DEFAULT_429_BLOCK_MS;
}

/** A prompt's size in tokens before the call, estimated ({@link estimateTokens}) from its JSON text. */
function promptTokensOf(prompt: unknown): number {
  return estimateTokens(JSON.stringify(prompt));
}

/**
 * AI SDK middleware that puts every provider request of one model call under `limiter`:
 * `wrapStream` runs once per attempt (the SDK's retries included), so each request waits for its
 * permit (key `key`, limits of `modelId`; tokens estimated as the prompt's plus `maxOutputTokens`)
 * and releases it when its stream ends, with the usage the provider reported. A 429 blocks `key`
 * for every worker for its `Retry-After` before the error goes on to the SDK, which waits and
 * retries (and the retry waits for the block like everyone else). Each request's outcome teaches
 * the key's adaptive limit ({@link outcomeOf}): its latency to the response's headers, a 429 and
 * its Retry-After, or a time limit.
 */
export function rateLimitMiddleware(limiter: CallRateLimiter, call: { modelId: string; key: string }): LanguageModelV3Middleware {
  return {
    specificationVersion: "v3",
    wrapStream: async ({ doStream, params }) => {
      const estimatedTokens = promptTokensOf(params.prompt) + (params.maxOutputTokens ?? 512);
      const permit: CallPermit = await limiter.acquire({ key: call.key, modelId: call.modelId, estimatedTokens }, params.abortSignal);
      let result: Awaited<ReturnType<typeof doStream>>;
      const sentAt = performance.now();
      try {
        result = await doStream();
      } catch (error) {
        await permit.release(null, outcomeOf(error));
        if (APICallError.isInstance(error) && error.statusCode === 429) await limiter.block(call.key, retryAfterMsOf(error.responseHeaders)).catch(() => undefined);
        throw error;
      }
      const ok: CallOutcome = { kind: "ok", latencyMs: performance.now() - sentAt };
      // Released when the stream ends, fails or is cancelled, with the usage the provider reported.
      let used: number | null = null;
      const reader = result.stream.getReader();
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(controller) {
          let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
          try {
            next = await reader.read();
          } catch (error) {
            await permit.release(used, outcomeOf(error));
            controller.error(error);
            return;
          }
          if (next.done) {
            await permit.release(used, ok);
            controller.close();
            return;
          }
          const part = next.value;
          if (part.type === "finish") {
            const input = part.usage.inputTokens.total;
            const output = part.usage.outputTokens.total;
            if (input !== undefined || output !== undefined) used = (input ?? 0) + (output ?? 0);
          }
          controller.enqueue(part);
        },
        async cancel(reason) {
          await permit.release(used, ok);
          await reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}

/** What a failed request tells the adaptive limit: a 429 (with its Retry-After), a time limit, or nothing about load. */
export function outcomeOf(error: unknown): CallOutcome {
  if (APICallError.isInstance(error) && error.statusCode === 429) return { kind: "rate-limited", retryAfterMs: retryAfterMsOf(error.responseHeaders) };
  if (findModelTimeout(error)) return { kind: "timeout" };
  return { kind: "error" };
}
