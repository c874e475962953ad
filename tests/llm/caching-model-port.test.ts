import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { ModelCallError, type CachedResponse, type ModelPort, type ModelRequest, type ModelResponse, type ResponseCache } from "@/lib/engine/ports";
import { createCachingModelPort } from "@/lib/llm/caching-model-port";
import { createModelPort } from "@/lib/llm/model-port";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

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

describe("response cache: single-flight against a real provider (the fake OpenAI server)", () => {
  let server: FakeOpenAIServer;
  let port: ModelPort;
  const compatible = (text: string): ModelRequest => ({ ...request(text), settings: { modelId: "compatible:fake-model", temperature: 0, maxOutputTokens: 50 } });
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ respond: () => "Thought 1: the answer is streamed in pieces.\nAction 1: Finish[yes]" });
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
    port = createModelPort({ env, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("two identical recorded calls made at the same moment send one request; the follower gets the final text as a cache hit", async () => {
    const cached = createCachingModelPort(port, new MemoryRunStore());
    const before = server.chatRequests().length;
    const deltas: string[] = [];
    const followerDeltas: string[] = [];
    const [leader, follower] = await Promise.all([
      cached.generate(compatible("same moment"), { replay: "recorded", cacheScope: "exp-1", onDelta: (text) => deltas.push(text) }),
      cached.generate(compatible("same moment"), { replay: "recorded", cacheScope: "exp-1", onDelta: (text) => followerDeltas.push(text) }),
    ]);
    expect(server.chatRequests().length - before).toBe(1);
    expect(leader).toMatchObject({ source: "live", text: "Thought 1: the answer is streamed in pieces.\nAction 1: Finish[yes]" });
    expect(deltas.join("")).toBe(leader.text);
    expect(follower).toMatchObject({ source: "cache", costUsd: 0, latencyMs: 0, text: leader.text, requestHash: leader.requestHash });
    expect(followerDeltas).toEqual([]);
    // Another scope (another experiment) samples afresh.
    await cached.generate(compatible("same moment"), { replay: "recorded", cacheScope: "exp-2" });
    expect(server.chatRequests().length - before).toBe(2);
  });

  it("a failed leader lets the follower call live", async () => {
    const cached = createCachingModelPort(port, new MemoryRunStore());
    const before = server.chatRequests().length;
    server.failNext(1, { status: 400, message: "bad request, once" });
    const [leader, follower] = await Promise.allSettled([
      cached.generate(compatible("leader fails"), { replay: "recorded" }),
      cached.generate(compatible("leader fails"), { replay: "recorded" }),
    ]);
    expect(leader.status).toBe("rejected");
    expect(follower).toMatchObject({ status: "fulfilled", value: { source: "live" } });
    expect(server.chatRequests().length - before).toBe(2);
  });
});

describe("response cache: a follower whose cache read began before the leader stored its answer", () => {
  it("still waits for the leader (in flight starts before the cache read): one call", async () => {
    const store = new MemoryRunStore();
    // A slow cache (a database across the network): the read is taken at once, its answer arrives 40 ms later.
    const slow: ResponseCache = {
      async getCachedResponse(key: string): Promise<CachedResponse | null> {
        const found = await store.getCachedResponse(key);
        await new Promise((resolve) => setTimeout(resolve, 40));
        return found;
      },
      putCachedResponse: (key, response) => store.putCachedResponse(key, response),
    };
    let calls = 0;
    const fast: ModelPort = {
      async generate(): Promise<ModelResponse> {
        calls += 1;
        return { text: "answer", usage: { inputTokens: 1, outputTokens: 1 }, finishReason: "stop", latencyMs: 1, costUsd: 0.001, requestHash: "x", source: "live" };
      },
    };
    const cached = createCachingModelPort(fast, slow);
    const first = cached.generate(request("slow read"), { replay: "recorded" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = cached.generate(request("slow read"), { replay: "recorded" });
    const [a, b] = await Promise.all([first, second]);
    expect(calls).toBe(1);
    expect([a.source, b.source]).toEqual(["live", "cache"]);
  });
});
