import type { ModelCallOptions, ModelPort, ModelRequest, ModelResponse, ResponseCache } from "@/lib/engine/ports";
import { requestHashOf } from "./request-hash";

/**
 * Wraps a model port with the persisted response cache (DESIGN.md §1 "Replay").
 * Every live response is stored under its request hash (provider, model,
 * settings, messages). With `replay: "recorded"` a hit is served from the cache —
 * `source: "cache"`, latency 0 ms, cost 0 USD, no provider call — and a miss goes
 * live. A recorded call identical to one already in flight in this process waits
 * for it and is served its response the same way, so two experiment arms that
 * make the same trial-1 call at the same moment make it once. With `live` (the
 * default) the provider is always called.
 *
 * Errors are those of the inner port (when the call a recorded call waited for
 * fails, the waiting call is made on its own); a cache read or write failure is
 * not swallowed (it is a storage fault, not a model fault).
 */
export function createCachingModelPort(inner: ModelPort, cache: ResponseCache): ModelPort {
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

  const live = async (request: ModelRequest, requestHash: string, options: ModelCallOptions): Promise<ModelResponse> => {
    const response = await inner.generate(request, { signal: options.signal, onDelta: options.onDelta });
    await cache.putCachedResponse(requestHash, { text: response.text, usage: response.usage, finishReason: response.finishReason });
    return response;
  };

  return {
    async generate(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
      const requestHash = requestHashOf(request);
      if (options.replay !== "recorded") return live(request, requestHash, options);
      const hit = await cache.getCachedResponse(requestHash);
      if (hit) return fromCache(hit, requestHash);
      const pending = inFlight.get(requestHash);
      if (pending) {
        try {
          return fromCache(await pending, requestHash);
        } catch {
          // The call we waited for failed or was cancelled by its own run: make ours.
        }
      }
      const call = live(request, requestHash, options);
      inFlight.set(requestHash, call);
      try {
        return await call;
      } finally {
        inFlight.delete(requestHash);
      }
    },
  };
}
