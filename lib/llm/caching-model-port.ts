import type { ModelCallOptions, ModelPort, ModelRequest, ModelResponse, ResponseCache } from "@/lib/engine/ports";
import { requestHashOf } from "./request-hash";

/**
 * Wraps a model port with the persisted response cache (DESIGN.md §1 "Replay").
 * Every live response is stored under its request hash (provider, model,
 * settings, messages). With `replay: "recorded"` a hit is served from the cache —
 * `source: "cache"`, latency 0 ms, cost 0 USD, no provider call — and a miss goes
 * live. With `live` (the default) the provider is always called.
 *
 * Single-flight: a recorded call identical (same cache key) to one already in flight
 * in this process waits for it and is served its response the same way, so two
 * experiment arms that make the same trial-1 call at the same moment make it once.
 * "In flight" starts before the cache read (the map from cache key to the leader's
 * promise is filled synchronously), so a follower whose read began before the leader
 * stored its answer cannot miss both the cache and the leader. A follower streams
 * nothing: it gets the leader's final text at once (recorded as `source: "cache"`).
 * When the leader fails or is cancelled by its own run, the follower makes its own
 * call. Only within one process: `cli worker` processes sharing a PostgreSQL database
 * each make the call once, and the later ones are served from the cache only once
 * the first is recorded.
 *
 * A run that repeats a request (e.g. `none` at temperature 0 makes the same
 * trial again) is served the response recorded for the same occurrence on its
 * path: the cache key is the request hash for the first occurrence and
 * `hash#n` for the n-th repeat, `~k` for the k-th attempt at one call ({@link cacheKeyOf}).
 *
 * Errors are those of the inner port; a cache read or write failure is not
 * swallowed (it is a storage fault, not a model fault).
 */
export function createCachingModelPort(inner: ModelPort, cache: ResponseCache): ModelPort {
  /** Cache key → the leader's lookup-then-call, from before its cache read until its answer is stored. */
  const inFlight = new Map<string, Promise<ModelResponse>>();
  const fromCache = (response: Pick<ModelResponse, "text" | "usage" | "finishReason">, requestHash: string): ModelResponse => ({
    text: response.text,
    usage: response.usage,
    finishReason: response.finishReason,
    latencyMs: 0,
    costUsd: 0,
    requestHash,
    source: "cache",
  });

  const live = async (request: ModelRequest, cacheKey: string, options: ModelCallOptions): Promise<ModelResponse> => {
    const response = await inner.generate(request, { signal: options.signal, onDelta: options.onDelta, onRetry: options.onRetry });
    // An empty or filtered completion is asked for again by the engine: never replay it.
    const worthKeeping = response.text.trim() !== "" && response.finishReason !== "content-filter";
    if (worthKeeping) await cache.putCachedResponse(cacheKey, { text: response.text, usage: response.usage, finishReason: response.finishReason });
    return response;
  };

  const generate = async (request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> => {
    const requestHash = requestHashOf(request);
    const key = cacheKeyOf(requestHash, options.occurrence?.(requestHash) ?? 0, options.cacheScope ?? null, options.attempt ?? 1);
    if (options.replay !== "recorded") return live(request, key, options);
    // Checked and filled with no await in between, so two calls at the same moment find each other.
    const pending = inFlight.get(key);
    if (pending) {
      try {
        // The leader's answer (live, or its own cache hit) is served as a cache hit.
        return fromCache(await pending, requestHash);
      } catch {
        // The call we waited for failed or was cancelled by its own run: make ours (it may lead others in turn).
        if (inFlight.get(key) === pending) inFlight.delete(key);
        return generate(request, options);
      }
    }
    const lead = (async () => {
      const hit = await cache.getCachedResponse(key);
      if (hit) return fromCache(hit, requestHash);
      return live(request, key, options);
    })();
    inFlight.set(key, lead);
    try {
      return await lead;
    } finally {
      if (inFlight.get(key) === lead) inFlight.delete(key);
    }
  };

  return { generate };
}

/**
 * The cache key of the `occurrence`-th identical request on a path: the hash
 * itself for the first (so older caches still hit), `hash#n` after; within a
 * scope (an experiment), prefixed `scope:`.
 */
export function cacheKeyOf(requestHash: string, occurrence: number, scope: string | null = null, attempt = 1): string {
  const base = occurrence === 0 ? requestHash : `${requestHash}#${occurrence}`;
  // A later attempt at the same call (after an empty completion, or a reflection asked again) is its own entry.
  const key = attempt <= 1 ? base : `${base}~${attempt}`;
  return scope === null ? key : `${scope}:${key}`;
}
