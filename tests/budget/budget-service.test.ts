import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { promptText, streamOf } from "../helpers/mock-model";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";

/** A mock playing the QA demo script that reports 1,000 input tokens (400 of them cached) and 50 output tokens per call. */
function pricedMock(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async (call) =>
      streamOf(demoReply([qaDemoScriptBook], promptText(call)), {
        inputTokens: { total: 1000, noCache: 600, cacheRead: 400, cacheWrite: undefined },
        outputTokens: { total: 50, text: 50, reasoning: undefined },
      }),
  });
}

function setup() {
  const mock = pricedMock();
  const context = createServerContext({
    store: new MemoryRunStore(),
    env: { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" },
    model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }),
  });
  return { context, mock };
}

/** No half step: every step that has a thought also has its action and observation, and every model call of the Actor has its step. */
function expectWholeSteps(events: RunEvent[]) {
  const state = foldRun(events);
  for (const trial of state.trials) {
    for (const step of trial.steps) {
      expect(step.thought, `trial ${trial.trial} step ${step.step}`).not.toBeNull();
      expect(step.action).not.toBeNull();
      expect(step.observation).not.toBeNull();
    }
  }
  const actorCalls = Object.values(state.calls).filter((call) => call.role === "actor").length;
  expect(actorCalls).toBe(state.trials.reduce((n, trial) => n + trial.steps.length, 0));
}

const task = { environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion" } as const;

describe("budgets through the run service and the worker pool", () => {
  it("a token budget stops a demo run at a step boundary (budget-exhausted), and resuming with a higher one completes it", async () => {
    const { context } = setup();
    const run = await context.service.createRun({ ...task, modelId: "demo", budget: { tokens: 2000 } });
    await context.workers.untilSettled(run.rootBranchId);
    expect(await context.service.status(run)).toBe("budget-exhausted");
    const stopped = (await context.service.events(run.id)).events;
    const last = stopped.at(-1);
    expect(last?.type).toBe("run-pause");
    expect(last?.type === "run-pause" && last.data.reason).toBe("budget");
    const state = foldRun(stopped);
    // 1,050 tokens a call: two calls reach 2,000; the third is never made.
    expect(state.totals.modelCalls).toBe(2);
    expect(state.spend.tokens).toBe(2100);
    expectWholeSteps(stopped);

    // Resuming with the same budget is refused and records nothing.
    await expect(context.service.resume(run.id, null, {})).rejects.toThrow(/higher budget/);
    expect((await context.service.events(run.id)).events.length).toBe(stopped.length);

    await context.service.resume(run.id, null, { budget: { tokens: 1_000_000 } });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    expect(await context.service.status(run)).toBe("ended");
    expect(foldRun(events).outcome).toBe("success");
    // Nothing recorded before the stop was lost or changed.
    expect(events.slice(0, stopped.length)).toEqual(stopped);
    const edit = events.find((event) => event.type === "budget-edit");
    expect(edit?.type === "budget-edit" && edit.data).toEqual({ oldValue: { tokens: 2000 }, newValue: { tokens: 1_000_000 }, note: null });
    expectWholeSteps(events);
    await context.workers.stop();
  });

  it("a $0.001 budget on a priced model stops after the call that crosses it; cached tokens are priced at the cached rate", async () => {
    const { context } = setup();
    // $0.50 / $2.00 / $0.05 per 1M: one call = (600 × 0.5 + 400 × 0.05 + 50 × 2) / 1e6 = $0.00042.
    const row = await context.prices.set({ modelId: "compatible:fake-model", inputUsdPerMTok: 0.5, outputUsdPerMTok: 2, cachedInputUsdPerMTok: 0.05, note: "test" });
    const run = await context.service.createRun({ ...task, modelId: "compatible:fake-model", budget: { usd: 0.001 } });
    await context.workers.untilSettled(run.rootBranchId);
    expect(await context.service.status(run)).toBe("budget-exhausted");
    const stopped = foldRun((await context.service.events(run.id)).events);
    const calls = Object.values(stopped.calls);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.usage.cachedInputTokens).toBe(400);
      expect(call.costUsd).toBeCloseTo(0.00042, 12);
      expect(call.price).toEqual({ rowId: row.id, enteredAt: row.enteredAt });
    }
    expect(stopped.pause?.detail).toMatch(/\$0\.0013 spent of \$0\.001/);

    await context.service.resume(run.id, null, { budget: { usd: 1 } });
    await context.workers.untilSettled(run.rootBranchId);
    expect(await context.service.status(run)).toBe("ended");
    const done = foldRun((await context.service.events(run.id)).events);
    const sum = Object.values(done.calls).reduce((n, call) => n + (call.costUsd ?? 0), 0);
    expect(done.totals.costUsd).toBeCloseTo(sum, 12);
    expect(done.outcome).toBe("success");
    await context.workers.stop();
  });
});
