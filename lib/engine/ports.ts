import type { ModelRole, ModelSettings } from "@/lib/domain/config";
import type { ChatMessage, EventDraft, ModelUsage, RunEvent } from "@/lib/domain/events";
import type { BranchId, RunId } from "@/lib/domain/ids";

/**
 * The engine's ports: everything it needs from the outside world, as interfaces.
 * Adapters live in lib/llm (models) and lib/db (events); tests pass in-memory ones.
 */

/** A model request as the engine builds it. */
export interface ModelRequest {
  role: ModelRole;
  settings: ModelSettings;
  messages: ChatMessage[];
  stopSequences: string[];
  /**
   * Length in characters of the stable prefix of the first message's `content` (instructions and
   * few-shot examples, the same in every call of the run), for provider prompt caching
   * (Anthropic cache control is put on it; other providers get the messages unchanged).
   * Not part of the request hash. Absent or 0: no cache breakpoint.
   */
  cachePrefixChars?: number;
}

/** A completed model call. Tokens are counts, `costUsd` is USD (null when unpriced), `latencyMs` is ms. */
export interface ModelResponse {
  text: string;
  /** Token counts; `cachedInputTokens` / `cacheWriteInputTokens` when the provider reports prompt-cache use. */
  usage: ModelUsage;
  finishReason: string;
  latencyMs: number;
  costUsd: number | null;
  requestHash: string;
  source: "live" | "cache";
  /** What the port changed so the provider would take the call (e.g. stop sequences dropped), for people; empty when nothing. */
  adjustments?: string[];
  /** The price-table row `costUsd` was computed with (set by the engine's {@link CallPricer}); null/absent when none. */
  price?: { rowId: string; enteredAt: string } | null;
}

/**
 * Prices a live call at record time (lib/server/price-service.ts over the
 * database's price table): USD with cached input tokens at the cached rate, and the row
 * used. `at` is the call's ISO-8601 end time; `costUsd` null when the model has no price.
 */
export interface CallPricer {
  price(modelId: string, usage: ModelUsage, at: string): Promise<{ costUsd: number | null; price: { rowId: string; enteredAt: string } | null }>;
}

/** A reply's size when the output limit stopped it: UTF-8 bytes and tokens received, and the limits in force. */
export interface ModelOutputSize {
  bytes: number;
  tokens: number;
  limitBytes: number;
  limitTokens: number;
}

/**
 * A model call that failed after the adapter's own retries. The engine records it
 * as `model-call-error` and pauses the run; it is never a failed trial.
 */
export class ModelCallError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly attempts: number;
  /** For code `output-too-large`: what was received when the call was stopped, and the limits. */
  readonly output: ModelOutputSize | null;

  constructor(message: string, options: { code: string; retryable: boolean; attempts: number; cause?: unknown; output?: ModelOutputSize }) {
    super(message, { cause: options.cause });
    this.name = "ModelCallError";
    this.code = options.code;
    this.retryable = options.retryable;
    this.attempts = options.attempts;
    this.output = options.output ?? null;
  }
}

/**
 * How a call may use the response cache: `live` always calls the provider;
 * `recorded` serves a cached response for the same request hash when there is
 * one (marked `source: "cache"`, cost 0) and calls live on a miss. Every live
 * response is written to the cache either way.
 */
export type ReplayMode = "live" | "recorded";

/** Per-call options of {@link ModelPort.generate}. */
export interface ModelCallOptions {
  /** Cancels the call; the port then throws a {@link ModelCallError} with code `aborted`. */
  signal?: AbortSignal;
  /** How the call may use the response cache (default `live`). */
  replay?: ReplayMode;
  /**
   * How many calls on the run's path already made the request with this hash
   * (0 for the first): a recorded call is served the response recorded for the
   * same occurrence, so a run that repeats a prompt (e.g. `none` at temperature 0)
   * replays its own sequence instead of the first answer every time.
   */
  occurrence?: (requestHash: string) => number;
  /** Which attempt at this step's call this is (1 for the first): later attempts have their own cache keys. */
  attempt?: number;
  /** Only responses recorded under this scope are served or shared (`RunConfig.cacheScope`); default the database-wide cache. */
  cacheScope?: string | null;
  /** Told when a failed attempt will be retried (by the AI SDK), and after how long (ms), so people can see "retrying in N s". */
  onRetry?: (retry: RetryNotice) => void;
  /** Receives each streamed text piece of a live call, in order (not called for cache hits). */
  onDelta?: (text: string) => void;
}

/** A failed attempt that will be retried: which attempt failed (1-based), the wait before the next one (ms), and why. */
export interface RetryNotice {
  attempt: number;
  delayMs: number;
  message: string;
}

/** Calls models. Throws {@link ModelCallError} on provider failure. */
export interface ModelPort {
  generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
}

/** A response as the cache keeps it. Tokens are counts. */
export interface CachedResponse {
  text: string;
  usage: ModelUsage;
  finishReason: string;
}

/** The persisted response cache, keyed by the request hash (DESIGN.md §1 "Replay"). */
export interface ResponseCache {
  getCachedResponse(requestHash: string): Promise<CachedResponse | null>;
  putCachedResponse(requestHash: string, response: CachedResponse): Promise<void>;
}

/**
 * Where events go and come from. `append` is atomic: all drafts get consecutive
 * `seq` numbers after the branch's current last one, or none are stored.
 */
export interface EventLog {
  /**
   * Events visible on a branch, in `seq` order, with `seq > after` (default 0): at most `limit`
   * of them (default: all), the first ones after `after` — a page; the next page starts after the
   * last event's `seq`.
   */
  list(runId: RunId, branchId: BranchId, after?: number, limit?: number): Promise<RunEvent[]>;
  /** Appends drafts to a branch; returns the stored events. Throws on a schema violation. */
  append(runId: RunId, branchId: BranchId, drafts: readonly EventDraft[]): Promise<RunEvent[]>;
}
