// Over 400 lines: the one path every model call takes (stream, retries, parameter fallbacks, usage and
// caching, errors in words), kept together so each call is recorded the same way.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { APICallError, streamText, wrapLanguageModel, type ModelMessage } from "ai";
import type { ChatMessage, ModelUsage } from "@/lib/domain/events";
import { contextWindowFor } from "@/lib/domain/model-windows";
import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse, type RetryNotice } from "@/lib/engine/ports";
import type { DemoScriptBook } from "./demo-model";
import { isContextLengthError, toModelCallError, type ModelCallErrorContext } from "./model-call-errors";
import { modelTimeoutFor, type ModelTimeout } from "./model-timeouts";
import { limitedFetch, OutputMeter, outputLimitFor, type OutputLimit } from "./output-limit";
import { StreamEndedEarlyError, streamWatchMiddleware, type StreamWatchState } from "./stream-watch";
import { costUsdOf } from "./pricing";
import { ADJUSTABLE_PARAMETERS, ADJUSTMENT_NOTES, isAdjustableParameter, rejectedParameter, type AdjustableParameter, type RejectedParameterMemory } from "./rejected-parameters";
import {
  describeProviderTarget,
  resolveModel as resolveRegisteredModel,
  secretValues,
  type ProviderEnv,
  type ProviderTarget,
} from "./provider-registry";
import { requestHashOf } from "./request-hash";
import type { CallRateLimiter } from "./rate-limits/call-limiter";
import { limiterKeyOf, rateLimitMiddleware } from "./rate-limits/middleware";

/**
 * The engine's {@link ModelPort} on top of the AI SDK's `streamText`.
 *
 * Every call streams (so token deltas can be forwarded live), is retried by
 * the AI SDK itself (`maxRetries`, default 2, exponential backoff from 2 s,
 * honouring `retry-after`/`retry-after-ms` headers), and ends either in a
 * {@link ModelResponse} with `source: "live"` or a {@link ModelCallError}.
 *
 * Seam for the response cache: the port is a plain {@link ModelPort}, and
 * `requestHashOf(request)` (request-hash.ts) gives the same key the port
 * records, so a caching decorator can wrap it
 * (`generate = cached ?? { ...await inner.generate(r), source: "live" }`)
 * without touching this file.
 */

/**
 * Receives streamed text as it arrives: each call gets the next piece (not the
 * text so far), in order; the pieces joined equal `ModelResponse.text`.
 * Called synchronously from the stream loop, so it should be quick. If it
 * throws, the model call is cancelled and that same error is rethrown from
 * `generate` (it is not turned into a {@link ModelCallError}).
 */
export type DeltaListener = (text: string) => void;

/** Per-call options of {@link StreamingModelPort.generate}. */
export interface ModelCallOptions {
  /** Cancels the call (and any pending retry); `generate` then throws a `ModelCallError` with code `aborted`. */
  signal?: AbortSignal;
  /** Told when a failed attempt will be retried by the SDK, with the wait (ms). */
  onRetry?: (retry: RetryNotice) => void;
  /** Streamed text pieces of this call; called after the port-level `onDelta`, if both are set. */
  onDelta?: DeltaListener;
}

/** A {@link ModelPort} whose `generate` also accepts {@link ModelCallOptions} (a superset of the port's options). */
export interface StreamingModelPort extends ModelPort {
  /**
   * Runs one model call.
   * @throws ModelCallError when the provider fails after retries, the call is
   *   aborted, or the provider is not configured (code `provider-not-configured`).
   * @throws whatever an `onDelta` listener throws, unchanged.
   */
  generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
}

/** Options of {@link createModelPort}. */
export interface ModelPortOptions {
  /** Provider configuration, read at every call. Default: `process.env`. */
  env?: ProviderEnv;
  /** Scripts for the demo model (e.g. the QA environment's book). Default: none. */
  demoScriptBooks?: readonly DemoScriptBook[];
  /** Delay between the demo model's streamed chunks, in ms. Default 0. */
  demoChunkDelayMs?: number;
  /**
   * Delay of each demo model call before it answers, in ms. Default: the env
   * var `REFLEXION_DEMO_DELAY_MS` of {@link ModelPortOptions.env} when set, else 0.
   */
  demoCallDelayMs?: number;
  /**
   * Replaces the provider registry (tests: return a `MockLanguageModelV3`).
   * May throw an `AppError("provider-not-configured")`.
   */
  resolveModel?: (modelId: string) => LanguageModelV3;
  /** Retries after the first attempt, done by the AI SDK. Default 2 (3 attempts in all). */
  maxRetries?: number;
  /** Streamed text pieces of every call made through this port. */
  onDelta?: DeltaListener;
  /** Clock for `latencyMs`, in ms. Default `performance.now`. */
  now?: () => number;
  /**
   * Provider limits at the call site (lib/llm/rate-limits). Every request of a call
   * (the SDK's retries included) waits for its permit; a 429 blocks the key for every worker.
   */
  rateLimiter?: CallRateLimiter | null;
  /** Remembers the parameters each model's provider rejected beyond this process (the run store). Default: this port only. */
  rejectedParameters?: RejectedParameterMemory | null;
}

/**
 * The wait the AI SDK makes before retrying after attempt `attempt` failed with
 * `error` — its own rule (`retryWithExponentialBackoffRespectingRetryHeaders`,
 * not exported): `retry-after-ms`, else `retry-after` in seconds or as an HTTP
 * date, when under 60 s (or under the backoff); else the exponential backoff,
 * 2 s × 2^(attempt − 1). Only for telling people "retrying in N s"; the SDK does the waiting.
 */
export function sdkRetryDelayMs(error: unknown, attempt: number): number {
  const backoff = 2_000 * 2 ** (attempt - 1);
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return backoff;
  let ms: number | undefined;
  const retryAfterMs = headers["retry-after-ms"];
  if (retryAfterMs && !Number.isNaN(parseFloat(retryAfterMs))) ms = parseFloat(retryAfterMs);
  const retryAfter = headers["retry-after"];
  if (retryAfter && ms === undefined) {
    const seconds = parseFloat(retryAfter);
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < backoff) ? ms : backoff;
}

/** Default for {@link ModelPortOptions.maxRetries}. */
export const DEFAULT_MAX_RETRIES = 2;

/** Anthropic's prompt-cache breakpoint (`cache_control: { type: "ephemeral" }`, 5-minute cache). */
const ANTHROPIC_CACHE_CONTROL = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;

/**
 * The request's messages for the AI SDK. For Anthropic, when the request names a stable
 * prefix (`cachePrefixChars`) shorter than the first user message, that
 * message is sent as two text parts — the prefix with cache control, then the rest — so
 * the provider caches the instructions and examples; the text is the same, only split.
 * Every other provider gets the messages as they are (OpenAI caches prefixes by itself).
 */
export function toModelMessages(request: Pick<ModelRequest, "messages" | "cachePrefixChars">, provider: string): ModelMessage[] {
  const prefix = request.cachePrefixChars ?? 0;
  return request.messages.map((message, index) => {
    if (provider === "anthropic" && index === 0 && message.role === "user" && prefix > 0 && prefix < message.content.length) {
      return {
        role: "user",
        content: [
          { type: "text", text: message.content.slice(0, prefix), providerOptions: ANTHROPIC_CACHE_CONTROL },
          { type: "text", text: message.content.slice(prefix) },
        ],
      };
    }
    return toModelMessage(message);
  });
}

function toModelMessage(message: ChatMessage): ModelMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content };
    case "assistant":
      return { role: "assistant", content: message.content };
  }
}

function abortError(): Error {
  const error = new Error("The operation was aborted.");
  error.name = "AbortError";
  return error;
}

/**
 * Creates the model port.
 *
 * Maps a {@link ModelRequest} to `streamText({ model, messages, temperature,
 * maxOutputTokens, stopSequences, maxRetries, abortSignal })` (empty stop
 * sequences are not sent), and returns text, usage (`inputTokens` /
 * `outputTokens`, 0 when the provider omits them; `cachedInputTokens` /
 * `cacheWriteInputTokens` when the provider reports prompt-cache use), the SDK's unified finish
 * reason (`stop`, `length`, …), `latencyMs` (wall time of the whole call incl.
 * retries, ms), `costUsd` (USD from pricing.ts; `null` when the price or the
 * usage is unknown), `requestHash` (request-hash.ts) and `source: "live"`.
 */
export function createModelPort(options: ModelPortOptions = {}): StreamingModelPort {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const droppedByModel = new Map<string, Set<AdjustableParameter>>();
  const now = options.now ?? (() => performance.now());

  return {
    async generate(request: ModelRequest, callOptions: ModelCallOptions = {}): Promise<ModelResponse> {
      const env = options.env ?? process.env;
      const modelId = request.settings.modelId;

      let target: ProviderTarget;
      let requestHash: string;
      try {
        target = describeProviderTarget(modelId, env);
        requestHash = requestHashOf(request);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new ModelCallError(message, { code: "bad-request", retryable: false, attempts: 1, cause: error });
      }

      /** What the stream watch learnt of this call's current request (time limit, output limit, attempts). */
      const watch: StreamWatchState = { attempts: 0, timeout: null, tooLarge: null, armedTimers: 0 };
      const context = (): ModelCallErrorContext => ({ modelId, target, attempts: watch.attempts, secrets: secretValues(env) });

      let outputLimit: OutputLimit;
      try {
        outputLimit = outputLimitFor(env);
      } catch (error) {
        throw new ModelCallError(error instanceof Error ? error.message : String(error), { code: "bad-request", retryable: false, attempts: 1, cause: error });
      }

      let baseModel: LanguageModelV3;
      try {
        baseModel = options.resolveModel
          ? options.resolveModel(modelId)
          : resolveRegisteredModel(modelId, {
              env,
              demoScriptBooks: options.demoScriptBooks,
              demoChunkDelayMs: options.demoChunkDelayMs,
              demoCallDelayMs: options.demoCallDelayMs,
              // Response bodies are bounded too (a reply sent as one enormous event is buffered whole by the provider).
              fetch: limitedFetch(outputLimit),
            });
      } catch (error) {
        throw toModelCallError(error, context());
      }

      // The time limits in force for this provider (model-timeouts.ts); read per call like the rest of env.
      let timeout: ModelTimeout;
      try {
        timeout = modelTimeoutFor(target.provider, env);
      } catch (error) {
        throw new ModelCallError(error instanceof Error ? error.message : String(error), { code: "bad-request", retryable: false, attempts: 1, cause: error });
      }
      // A malformed REFLEXION_CONTEXT_WINDOW[_PROVIDER] is reported here, where the settings are read, like the time limit's.
      try {
        contextWindowFor(modelId, env);
      } catch (error) {
        throw new ModelCallError(error instanceof Error ? error.message : String(error), { code: "bad-request", retryable: false, attempts: 1, cause: error });
      }
      /** Tells the caller a failed attempt will be retried by the SDK, and when. */
      const notifyRetry = (error: unknown, attempt: number) => {
        if (!callOptions.onRetry || attempt > maxRetries || callOptions.signal?.aborted) return;
        const hit = watch.timeout;
        const retryable = hit !== null || (APICallError.isInstance(error) && error.isRetryable);
        if (!retryable) return;
        const message = hit ? hit.message : APICallError.isInstance(error) ? `HTTP ${error.statusCode ?? "error"}: ${error.message}` : String(error);
        callOptions.onRetry({ attempt, delayMs: sdkRetryDelayMs(error, attempt), message });
      };

      // The rate limiter (outermost, so waiting for a permit is not counted as time to first token).
      const limiter = options.rateLimiter ? [rateLimitMiddleware(options.rateLimiter, { modelId, key: limiterKeyOf(modelId, target.apiKeyEnvVar ? env[target.apiKeyEnvVar] : null) })] : [];
      const model = wrapLanguageModel({
        model: baseModel,
        middleware: [
          ...limiter,
          streamWatchMiddleware({
            timeout,
            provider: target.provider,
            url: target.baseUrl ?? "",
            outputLimit,
            state: watch,
            rawFinishReasonExpected: target.provider === "openai" || target.provider === "compatible" || target.provider === "ollama",
            onStartFailed: (error) => notifyRetry(error, watch.attempts),
          }),
        ],
      });

      const listeners = [options.onDelta, callOptions.onDelta].filter((l): l is DeltaListener => l !== undefined);
      const started = now();
      let text = "";
      let finish:
        | { reason: string; inputTokens: number | undefined; outputTokens: number | undefined; cacheRead: number | undefined; cacheWrite: number | undefined }
        | undefined;
      let streamError: { error: unknown } | undefined;
      let listenerError: { error: unknown } | undefined;
      let aborted = false;
      // Parameters this model's provider rejected before (kept for the port's life, and in the store when
      // there is one: a resume in another process must not fail on them again), and the notes for this call.
      const dropped = droppedByModel.get(modelId) ?? new Set<AdjustableParameter>();
      droppedByModel.set(modelId, dropped);
      const memory = options.rejectedParameters;
      if (memory) {
        const remembered = await memory.rejectedParameters(modelId).catch(() => [] as readonly string[]);
        for (const name of remembered) if (isAdjustableParameter(name)) dropped.add(name);
      }
      const adjustments: string[] = [];

      // Each rejected parameter is dropped once: at most one pass per parameter, plus the first.
      for (let pass = 0; pass <= ADJUSTABLE_PARAMETERS.length; pass += 1) {
        try {
          const result = streamText({
            model,
            messages: toModelMessages(request, target.provider),
            allowSystemInMessages: true,
            temperature: dropped.has("temperature") ? undefined : request.settings.temperature,
            maxOutputTokens: dropped.has("maxOutputTokens") ? undefined : request.settings.maxOutputTokens,
            seed: request.settings.seed,
            stopSequences: request.stopSequences.length > 0 && !dropped.has("stopSequences") ? [...request.stopSequences] : undefined,
            maxRetries,
            abortSignal: callOptions.signal,
            // Errors are handled from the stream below; the default handler would console.error them.
            onError: () => {},
          });
          loop: for await (const part of result.fullStream) {
            switch (part.type) {
              case "text-delta":
                text += part.text;
                try {
                  for (const listener of listeners) listener(part.text);
                } catch (error) {
                  listenerError = { error };
                  break loop;
                }
                break;
              case "finish":
                finish = {
                  reason: part.finishReason,
                  inputTokens: part.totalUsage.inputTokens,
                  outputTokens: part.totalUsage.outputTokens,
                  cacheRead: part.totalUsage.inputTokenDetails?.cacheReadTokens,
                  cacheWrite: part.totalUsage.inputTokenDetails?.cacheWriteTokens,
                };
                break;
              case "error":
                streamError = { error: part.error };
                break loop;
              case "abort":
                aborted = true;
                break loop;
              default:
                break;
            }
          }
        } catch (error) {
          streamError = { error };
        }
        // A 400 naming a parameter the provider does not take: drop it and ask once more (before any text arrived).
        // (Not for a context-length 400: its wording can name max_tokens, and the engine shrinks the prompt instead.)
        const rejected = streamError && text === "" && !isContextLengthError(streamError.error) ? rejectedParameter(streamError.error) : null;
        if (rejected !== null && !dropped.has(rejected)) {
          dropped.add(rejected);
          await memory?.rememberRejectedParameter(modelId, rejected).catch(() => undefined);
          streamError = undefined;
          finish = undefined;
          continue;
        }
        break;
      }
      for (const parameter of dropped) adjustments.push(ADJUSTMENT_NOTES[parameter]);

      if (listenerError) throw listenerError.error;
      // A time limit, unless the caller's own signal fired (then it is an abort).
      const limit = watch.timeout;
      if (limit && !callOptions.signal?.aborted) throw toModelCallError(limit, context());
      const tooLarge = watch.tooLarge ?? (finish ? new OutputMeter(outputLimit).reported(finish.outputTokens) : null);
      if (tooLarge) throw toModelCallError(tooLarge, context());
      if (aborted || (streamError === undefined && callOptions.signal?.aborted)) {
        throw toModelCallError(abortError(), context());
      }
      if (streamError) throw toModelCallError(streamError.error, context());
      if (finish === undefined) throw toModelCallError(new StreamEndedEarlyError(), context());

      const latencyMs = Math.max(0, Math.round(now() - started));
      // Prompt-cache reads/writes are recorded only when reported and non-zero (openai-compatible reports 0 when the server says nothing).
      const usage: ModelUsage = {
        inputTokens: finish.inputTokens ?? 0,
        outputTokens: finish.outputTokens ?? 0,
        ...(finish.cacheRead ? { cachedInputTokens: finish.cacheRead } : {}),
        ...(finish.cacheWrite ? { cacheWriteInputTokens: finish.cacheWrite } : {}),
      };
      const usageReported = finish.inputTokens !== undefined || finish.outputTokens !== undefined;
      return {
        text,
        usage,
        finishReason: finish.reason,
        latencyMs,
        // Without reported usage the cost is unknown, not 0.
        costUsd: usageReported ? costUsdOf(modelId, usage) : null,
        requestHash,
        source: "live",
        adjustments,
      };
    },
  };
}
