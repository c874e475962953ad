import type { ChatMessage, EventData } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import { countTokens } from "@/lib/domain/tokenizer";
import { contextWindowFor, type ContextWindow } from "@/lib/domain/model-windows";
import { badCompletionError, completionProblem, MAX_COMPLETION_ATTEMPTS } from "./completion-checks";
import { retryAfterContextLength, type PromptShrinker } from "./context-length-retry";
import type { EngineDeps } from "./engine-deps";
import { ModelCallError, type ModelRequest, type ModelResponse, type RetryNotice } from "./ports";

/** Model calls as the engine makes them: watched while they run, repeated when the completion is not the agent's fault. */

/** A model call as a watcher sees it while it runs (transient: nothing of this is stored). */
export interface CallInfo {
  role: "actor" | "reflector";
  trial: number;
  /** The Actor step; null for a Self-Reflection call. */
  step: number | null;
  /** ISO-8601 time the call started. */
  startedAt: string;
}

/** Watches model calls while they run: start, each streamed text piece, end (success or not). */
export interface CallObserver {
  start(call: CallInfo): void;
  /** The next piece of streamed text (not the text so far). Live calls only. */
  delta(call: CallInfo, text: string): void;
  /** A failed attempt will be retried after `retry.delayMs` ms (rate limit, server error, first-token timeout). */
  retry?(call: CallInfo, retry: RetryNotice): void;
  end(call: CallInfo): void;
}


/** What a model call needs from the engine's context. */
export interface ModelCallContext {
  deps: EngineDeps;
  signal: AbortSignal | undefined;
  onCall: CallObserver | undefined;
  /** The path's request counts by hash (`RunState.requestCounts`). */
  requestCounts: Readonly<Record<string, number>>;
  /** `RunConfig.cacheScope` of the run. */
  cacheScope: string | null;
}

/** A response as the engine records it: what was sent (after any shrink) and its size against the model's window. */
export interface EngineResponse extends ModelResponse {
  /** The messages actually sent, when they differ from the request's (shrunk after a context-length error). */
  sentMessages?: ChatMessage[];
  /** For `model-call-end.contextUse`. */
  contextUse: EventData<"model-call-end">["contextUse"];
}

/**
 * One model call, watched by the call observer (start, deltas, end). A
 * completion that is not the agent's fault (empty, content-filtered, cut off
 * before it is `usable`, a stream that broke off) is asked for again, live, up to
 * {@link MAX_COMPLETION_ATTEMPTS} times; then a retryable {@link ModelCallError}
 * is thrown, which the engine records as `model-call-error` and pauses on.
 *
 * A `context-length` error with a `shrink` given is retried once with the
 * prompt `shrink` builds for a tighter budget (./context-length-retry.ts); the
 * change is recorded in the response's `adjustments`.
 */
export async function callModel(
  context: ModelCallContext,
  request: ModelRequest,
  /** What the call observer is told; null for a call nobody watches live (the LLM judge's JSON). */
  call: Omit<CallInfo, "startedAt"> | null,
  replay: RunState["replayMode"],
  usable: (text: string) => boolean,
  /** Attempts already made for this step by the caller (a reflection asked again): keeps each attempt's cache key distinct. */
  attemptsBefore = 0,
  /** Rebuilds the prompt for a smaller token budget (the Actor's or the Self-Reflection's). */
  shrink?: PromptShrinker,
): Promise<EngineResponse> {
  const modelId = request.settings.modelId;
  const window = windowOf(context.deps, modelId);
  const ask = (messages: ChatMessage[]) => checkedCall(context, { ...request, messages }, call, replay, usable, attemptsBefore);
  const withUse = (response: ModelResponse, messages: ChatMessage[]): EngineResponse => {
    const counted = countTokens(modelId, messages);
    return { ...response, contextUse: { promptTokens: counted.tokens, window: window.tokens, tokenizer: counted.tokenizer, exact: counted.exact } };
  };
  try {
    return withUse(await ask(request.messages), request.messages);
  } catch (error) {
    if (!(error instanceof ModelCallError) || error.code !== "context-length") throw error;
    const retried = await retryAfterContextLength(error, { modelId, messages: request.messages, maxOutputTokens: request.settings.maxOutputTokens, window }, shrink, ask);
    return { ...withUse(retried.response, retried.messages), sentMessages: retried.messages, adjustments: [...(retried.response.adjustments ?? []), retried.note] };
  }
}

/** The model's context window: the deps' lookup when given, else the table and the server's environment (`REFLEXION_CONTEXT_WINDOW[_PROVIDER]`). */
function windowOf(deps: EngineDeps, modelId: string): ContextWindow {
  if (deps.contextWindowFor) return deps.contextWindowFor(modelId);
  try {
    return contextWindowFor(modelId, process.env);
  } catch {
    // A malformed override is reported by the model port (the call fails with a message naming the variable); the meter falls back to the table.
    return contextWindowFor(modelId);
  }
}

/** {@link callModel} without the context-length retry: the bounded repeats of completions that are not the agent's fault. */
async function checkedCall(
  context: ModelCallContext,
  request: ModelRequest,
  call: Omit<CallInfo, "startedAt"> | null,
  replay: RunState["replayMode"],
  usable: (text: string) => boolean,
  attemptsBefore: number,
): Promise<ModelResponse> {
  const observer = call === null ? undefined : context.onCall;
  let problem: ReturnType<typeof completionProblem> = null;
  for (let attempt = attemptsBefore + 1; attempt <= attemptsBefore + MAX_COMPLETION_ATTEMPTS; attempt += 1) {
    const info: CallInfo = { role: call?.role ?? "actor", trial: call?.trial ?? 1, step: call?.step ?? null, startedAt: new Date().toISOString() };
    observer?.start(info);
    let response: ModelResponse;
    try {
      response = await context.deps.model.generate(request, {
        signal: context.signal,
        // Each attempt has its own cache key: a repeat after a bad completion reaches the model the first
        // time, and a recorded replay of the run is served the same sequence of attempts.
        replay,
        attempt,
        occurrence: (hash) => context.requestCounts[hash] ?? 0,
        cacheScope: context.cacheScope,
        onDelta: observer ? (text) => observer.delta(info, text) : undefined,
        onRetry: observer?.retry ? (retry) => observer.retry?.(info, retry) : undefined,
      });
    } catch (error) {
      // A stream that broke off mid-answer is not the agent's fault either: ask again (bounded), never use the half answer.
      const last = attempt === attemptsBefore + MAX_COMPLETION_ATTEMPTS;
      if (!(error instanceof ModelCallError) || error.code !== "stream-broke-off") throw error;
      if (last) throw new ModelCallError(`${error.message} (${MAX_COMPLETION_ATTEMPTS} attempts)`, { code: error.code, retryable: true, attempts: MAX_COMPLETION_ATTEMPTS, cause: error });
      continue;
    } finally {
      observer?.end(info);
    }
    problem = completionProblem(response, usable);
    if (problem === null) return priced(context.deps, request, response);
  }
  throw badCompletionError(problem ?? { code: "empty-completion", message: "the completion was empty" }, MAX_COMPLETION_ATTEMPTS, request.settings.modelId);
}

/**
 * The response with its cost computed at record time by the deps' pricer (the price
 * table in force now; cached input tokens at the cached rate). A response served from the
 * response cache costs 0 and names no price row; without a pricer the port's cost stands.
 */
async function priced(deps: EngineDeps, request: ModelRequest, response: ModelResponse): Promise<ModelResponse> {
  if (response.source === "cache") return { ...response, costUsd: 0, price: null };
  if (!deps.pricing) return response;
  const { costUsd, price } = await deps.pricing.price(request.settings.modelId, response.usage, new Date().toISOString());
  return { ...response, costUsd, price };
}

/** True when `error` is the abort of `signal` (the run's cancel or a worker's stop). */
export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && error instanceof Error && (error.name === "AbortError" || error === signal.reason);
}

/**
 * Waits for `work` unless `signal` aborts first (then rejects with an AbortError).
 * Used for sandbox jobs, which stop at their own time limit: on cancel the run
 * stops waiting and the job's result is discarded.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** An Error named `AbortError`, as fetch and the AI SDK throw on abort. */
export function abortError(): Error {
  const error = new Error("The operation was aborted.");
  error.name = "AbortError";
  return error;
}
