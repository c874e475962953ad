import { describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse } from "@/lib/engine/ports";
import { createCachingModelPort } from "@/lib/llm/caching-model-port";

const request = (text: string): ModelRequest => ({ role: "actor", settings: { modelId: "demo", temperature: 0, maxOutputTokens: 10 }, messages: [{ role: "user", content: text }], stopSequences: [] });

/** A port that answers each call after `release()`, counting the calls it really makes. */
function gatedPort() {
  const calls: string[] = [];
  const gates: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const port: ModelPort = {
    async generate(req): Promise<ModelResponse> {
      calls.push(req.messages[0]!.content);
      await new Promise<void>((resolve, reject) => gates.push({ resolve, reject }));
      return { text: `answer to ${req.messages[0]!.content}`, usage: { inputTokens: 5, outputTokens: 3 }, finishReason: "stop", latencyMs: 12, costUsd: 0.001, requestHash: "x", source: "live" };
    },
  };
  return { port, calls, gates };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("response cache: recorded calls in flight are made once", () => {
  it("a recorded call identical to one in flight waits for it and is served from it (source cache, cost 0)", async () => {
    const { port, calls, gates } = gatedPort();
    const cached = createCachingModelPort(port, new MemoryRunStore());
    const first = cached.generate(request("q"), { replay: "recorded" });
    await tick();
    const second = cached.generate(request("q"), { replay: "recorded" });
    await tick();
    expect(calls).toEqual(["q"]);
    gates[0]!.resolve();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ source: "live", costUsd: 0.001 });
    expect(b).toMatchObject({ source: "cache", costUsd: 0, latencyMs: 0, text: a.text });
    // Afterwards it is in the cache for anyone in recorded mode; live mode still calls.
    expect(await cached.generate(request("q"), { replay: "recorded" })).toMatchObject({ source: "cache" });
    const third = cached.generate(request("q"), { replay: "live" });
    await tick();
    expect(calls).toEqual(["q", "q"]);
    gates[1]!.resolve();
    expect(await third).toMatchObject({ source: "live" });
  });

  it("when the call waited for fails, the waiting call is made on its own", async () => {
    const { port, calls, gates } = gatedPort();
    const cached = createCachingModelPort(port, new MemoryRunStore());
    const first = cached.generate(request("q"), { replay: "recorded" });
    await tick();
    const second = cached.generate(request("q"), { replay: "recorded" });
    await tick();
    gates[0]!.reject(new ModelCallError("aborted by its run", { code: "aborted", retryable: true, attempts: 1 }));
    await expect(first).rejects.toThrow(/aborted by its run/);
    await tick();
    expect(calls).toEqual(["q", "q"]);
    gates[1]!.resolve();
    expect(await second).toMatchObject({ source: "live" });
  });

  it("the n-th repeat of a request on a path is served the n-th recorded response, not the first one again", async () => {
    let n = 0;
    const port: ModelPort = {
      async generate(): Promise<ModelResponse> {
        n += 1;
        return { text: `sample ${n}`, usage: { inputTokens: 1, outputTokens: 1 }, finishReason: "stop", latencyMs: 1, costUsd: 0, requestHash: "x", source: "live" };
      },
    };
    const cached = createCachingModelPort(port, new MemoryRunStore());
    // A first run repeats the same prompt three times (occurrences 0, 1, 2): three live samples.
    const first = [];
    for (let k = 0; k < 3; k += 1) first.push(await cached.generate(request("same"), { replay: "recorded", occurrence: () => k }));
    expect(first.map((r) => [r.text, r.source])).toEqual([["sample 1", "live"], ["sample 2", "live"], ["sample 3", "live"]]);
    // A replay of that path gets the same sequence from the cache; a fourth repeat goes live.
    const replay = [];
    for (let k = 0; k < 4; k += 1) replay.push(await cached.generate(request("same"), { replay: "recorded", occurrence: () => k }));
    expect(replay.map((r) => [r.text, r.source])).toEqual([["sample 1", "cache"], ["sample 2", "cache"], ["sample 3", "cache"], ["sample 4", "live"]]);
  });
});
