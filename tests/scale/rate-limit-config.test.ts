import { describe, expect, it } from "vitest";
import { createMemoryCallLimiter } from "@/lib/llm/rate-limits/call-limiter";
import { limitFor, parseRateLimits } from "@/lib/llm/rate-limits/config";
import { keyIdOf, limiterKeyOf, retryAfterMsOf } from "@/lib/llm/rate-limits/middleware";

/** The pure parts of the call-site limits, and the in-memory limiter of the embedded mode. */
describe("REFLEXION_RATE_LIMITS", () => {
  it("parses limits per pattern; the most specific pattern wins", () => {
    const table = parseRateLimits('{"openai": {"requestsPerMinute": 500, "concurrent": 8}, "openai:gpt-4o-mini": {"tokensPerMinute": 1000}, "*": {"requestsPerMinute": 60}}');
    expect(limitFor(table, "openai:gpt-4o-mini")).toEqual({ tokensPerMinute: 1000, windowSeconds: 60 });
    expect(limitFor(table, "openai:gpt-4o")).toEqual({ requestsPerMinute: 500, concurrent: 8, windowSeconds: 60 });
    expect(limitFor(table, "anthropic:claude")).toEqual({ requestsPerMinute: 60, windowSeconds: 60 });
    expect(limitFor(parseRateLimits(undefined), "openai:x")).toBeNull();
  });

  it("rejects bad input with a message naming the variable and the fields", () => {
    expect(() => parseRateLimits("{nope")).toThrow(/REFLEXION_RATE_LIMITS is not JSON/);
    expect(() => parseRateLimits('{"openai": {"rpm": 5}}')).toThrow(/REFLEXION_RATE_LIMITS: openai.*requestsPerMinute, tokensPerMinute, concurrent, windowSeconds/);
    expect(() => parseRateLimits('{"openai": {"concurrent": 0}}')).toThrow(/REFLEXION_RATE_LIMITS: openai\.concurrent/);
  });
});

describe("limiter keys and Retry-After", () => {
  it("keys name provider, model and a hash of the API key, never the key", () => {
    const key = limiterKeyOf("openai:gpt-4o", "sk-secret-value");
    expect(key).toMatch(/^openai:gpt-4o\|[0-9a-f]{16}$/);
    expect(key).not.toContain("secret");
    expect(keyIdOf("sk-a")).not.toBe(keyIdOf("sk-b"));
    expect(keyIdOf(undefined)).toBe("none");
  });

  it("reads retry-after-ms, retry-after in seconds or as an HTTP date, else 2 s", () => {
    expect(retryAfterMsOf({ "retry-after-ms": "1500" })).toBe(1500);
    expect(retryAfterMsOf({ "retry-after": "3" })).toBe(3000);
    expect(retryAfterMsOf({ "retry-after": new Date(10_000).toUTCString() }, 4_000)).toBe(6000);
    expect(retryAfterMsOf({})).toBe(2000);
    expect(retryAfterMsOf({ "retry-after": "99999" })).toBe(600_000);
  });
});

describe("the in-memory limiter (embedded mode)", () => {
  it("admits requestsPerMinute × window / 60 per window, then makes the next call wait for the next window", async () => {
    const limiter = createMemoryCallLimiter(parseRateLimits('{"compatible": {"requestsPerMinute": 180, "windowSeconds": 1}}'));
    const call = { key: "compatible:m|none", modelId: "compatible:m", estimatedTokens: 10 };
    const started = Date.now();
    for (let i = 0; i < 3; i += 1) await (await limiter.acquire(call)).release(10);
    expect(Date.now() - started).toBeLessThan(900);
    await limiter.acquire(call);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("caps calls in flight and frees a slot on release; a 429 block holds every call for the key", async () => {
    const limiter = createMemoryCallLimiter(parseRateLimits('{"*": {"concurrent": 1}}'));
    const call = { key: "openai:x|k", modelId: "openai:x", estimatedTokens: 1 };
    const first = await limiter.acquire(call);
    let second = false;
    const waiting = limiter.acquire(call).then((permit) => {
      second = true;
      return permit;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(second).toBe(false);
    await first.release(null);
    await (await waiting).release(null);
    expect(second).toBe(true);

    await limiter.block(call.key, 1000);
    const blockedAt = Date.now();
    await (await limiter.acquire(call)).release(null);
    expect(Date.now() - blockedAt).toBeGreaterThanOrEqual(900);
    // An aborted wait rejects instead of waiting on.
    await limiter.block(call.key, 5000);
    const abort = new AbortController();
    const pending = limiter.acquire(call, abort.signal);
    abort.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("cancelled");
  });
});
