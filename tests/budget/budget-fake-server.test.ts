import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createServerContext } from "@/lib/server/app-context";
import { flattenMessages, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * A USD budget on a priced model served by the fake OpenAI-compatible server, through the
 * real model port (AI SDK), the service and the worker pool: the server reports a quarter of
 * every prompt as cached (`prompt_tokens_details.cached_tokens`), which is priced at the
 * cached rate.
 */
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({
    respond: (messages) => demoReply([qaDemoScriptBook], flattenMessages(messages)),
    cachedTokens: (promptTokens) => Math.floor(promptTokens / 4),
  });
});
afterAll(async () => {
  await server.close();
});

describe("a budget on a fake-server model", () => {
  it("stops at a step boundary with budget-exhausted, resumes with a higher budget, and prices cached tokens at the cached rate", async () => {
    const context = createServerContext({ store: new MemoryRunStore(), env: { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl } });
    await context.prices.set({ modelId: "compatible:fake-model", inputUsdPerMTok: 10, outputUsdPerMTok: 30, cachedInputUsdPerMTok: 1, note: "test" });
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-02", strategy: "reflexion", modelId: "compatible:fake-model", budget: { usd: 0.004 } });
    await context.workers.untilSettled(run.rootBranchId);
    expect(await context.service.status(run)).toBe("budget-exhausted");
    const stopped = foldRun((await context.service.events(run.id)).events);
    const calls = Object.values(stopped.calls);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.length).toBe(server.chatRequests().length);
    for (const call of calls) {
      const cached = call.usage.cachedInputTokens ?? 0;
      expect(cached).toBe(Math.floor(call.usage.inputTokens / 4));
      expect(call.costUsd).toBeCloseTo(((call.usage.inputTokens - cached) * 10 + cached * 1 + call.usage.outputTokens * 30) / 1e6, 12);
    }
    // Stopped by the first call that reached the budget: the calls before it stayed under it.
    const costs = calls.map((call) => call.costUsd ?? 0);
    expect(costs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(0.004);
    expect(costs.slice(0, -1).reduce((a, b) => a + b, 0)).toBeLessThan(0.004);

    await context.service.resume(run.id, null, { budget: { usd: 10 } });
    await context.workers.untilSettled(run.rootBranchId);
    const done = foldRun((await context.service.events(run.id)).events);
    expect(done.status).toBe("ended");
    expect(done.outcome).toBe("success");
    expect(Object.keys(done.calls).length).toBe(server.chatRequests().length);
    await context.workers.stop();
  });
});
