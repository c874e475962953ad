import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "@/lib/engine/ports";
import { createModelPort } from "@/lib/llm/model-port";
import { AdaptiveGate } from "@/lib/llm/rate-limits/adaptive-gate";
import { createMemoryCallLimiter } from "@/lib/llm/rate-limits/call-limiter";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * The adaptive limit on the real call path: the model port (AI SDK stream and retries) under the
 * call-site limiter, against the fake provider. A 429 with Retry-After teaches the key's limit and
 * holds the SDK's retry until the pause has passed; later calls are paced at the learnt rate.
 */

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ latencyMs: 20, respond: () => "Thought: done.\nAction: Finish[yes]" });
});
afterAll(() => server.close());

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "compatible:fake-model", temperature: 0, maxOutputTokens: 32 },
  messages: [{ role: "user", content: "Question: where?" }],
  stopSequences: [],
};

describe("adaptive limit through the model port", () => {
  it("learns from a 429, waits out its Retry-After before the SDK's retry goes out, then paces later calls", async () => {
    const gate = new AdaptiveGate();
    const port = createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl }, rateLimiter: createMemoryCallLimiter({}, { adaptive: gate }) });
    for (let i = 0; i < 4; i += 1) await port.generate(request);
    expect(gate.snapshots()[0]?.state).toMatchObject({ ratePerS: null, started: 4, rateLimited: 0 });

    // retry-after-ms 400: the SDK waits that long itself; the key's pause holds the retry at the gate too.
    server.failNext(1, { status: 429, message: "slow down", retryAfterMs: 400 });
    await port.generate(request);
    const chat = server.chatRequests();
    const limited = chat.at(-2);
    const retried = chat.at(-1);
    expect(limited?.status).toBe(429);
    expect((retried?.receivedAt ?? 0) - (limited?.receivedAt ?? 0)).toBeGreaterThanOrEqual(390);
    const learnt = gate.snapshots()[0]?.state;
    expect(learnt).toMatchObject({ rateLimited: 1, decreases: 1, started: 6 });
    const rate = learnt?.ratePerS ?? 0;
    expect(rate).toBeGreaterThan(0);

    // Two more calls: the second starts no sooner than 1 / rate after the first (less the catch-up allowance).
    await Promise.all([port.generate(request), port.generate(request)]);
    const [a, b] = server.chatRequests().slice(-2).map((r) => r.receivedAt ?? 0);
    expect(Math.abs((b ?? 0) - (a ?? 0))).toBeGreaterThanOrEqual(Math.min(1_000 / rate, 5_000) - 300);
  });
});
