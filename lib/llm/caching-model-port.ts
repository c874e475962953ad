import type { ModelCallOptions, ModelPort, ModelRequest, ModelResponse, ResponseCache } from "@/lib/engine/ports";
import { requestHashOf } from "./request-hash";

/**
 * Wraps a model port with the persisted response cache (DESIGN.md §1 "Replay").
 * Every live response is stored under its request hash (provider, model,
 * settings, messages). With `replay: "recorded"` a hit is served from the cache —
 * `source: "cache"`, latency 0 ms, cost 0 USD, no provider call — and a miss goes
 * live. With `live` (the default) the provider is always called.
 *
 * Errors are those of the inner port; a cache read or write failure is not
 * swallowed (it is a storage fault, not a model fault).
 */
export function createCachingModelPort(inner: ModelPort, cache: ResponseCache): ModelPort {
  return {
    async generate(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
      const requestHash = requestHashOf(request);
      if (options.replay === "recorded") {
        const hit = await cache.getCachedResponse(requestHash);
        if (hit) {
          return { text: hit.text, usage: hit.usage, finishReason: hit.finishReason, latencyMs: 0, costUsd: 0, requestHash, source: "cache" };
        }
      }
      const response = await inner.generate(request, { signal: options.signal, onDelta: options.onDelta });
      await cache.putCachedResponse(requestHash, { text: response.text, usage: response.usage, finishReason: response.finishReason });
      return response;
    },
  };
}
