import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";

function setup() {
  const mock = demoMockModel([qaDemoScriptBook]);
  return createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
}

describe("experiment budgets", () => {
  it("split the budget evenly over the runs, stop each at its share, and continue them with a larger one", async () => {
    const context = setup();
    // 2 tasks × 2 arms; 4,400 tokens → 1,100 per run (each mock call is 110 tokens); the Reflexion arm sets its own 220.
    const record = await context.experiments.start({
      name: "budgeted",
      environment: "qa",
      taskSet: "builtin",
      taskIds: ["qa-builtin-01", "qa-builtin-02"],
      arms: [
        { label: "ReAct", strategy: "none", modelId: "demo" },
        { label: "Reflexion", strategy: "reflexion", modelId: "demo", budget: { tokens: 220 } },
      ],
      maxTrials: 5,
      budget: { tokens: 4400 },
    });
    await context.workers.whenIdle();
    const links = await context.store.experiments.listExperimentRuns(record.id);
    for (const link of links) {
      const run = await context.service.getRun(link.runId);
      expect(run.config.budget).toEqual(link.arm === "Reflexion" ? { tokens: 220 } : { tokens: 1100 });
    }
    const summary = await context.experiments.summary(record.id);
    const exhausted = summary.cells.filter((cell) => cell.status === "budget-exhausted");
    // The Reflexion arm's own budget (2 calls) stops both of its runs; every stopped run spent at least its limit.
    expect(exhausted.filter((cell) => cell.arm === "Reflexion")).toHaveLength(2);
    for (const cell of exhausted) expect(foldRun((await context.service.events(cell.runId)).events).spend.tokens).toBeGreaterThanOrEqual(cell.arm === "Reflexion" ? 220 : 1100);

    await context.experiments.resume(record.id, { budget: { tokens: 4_000_000 } });
    await context.workers.whenIdle();
    const after = await context.experiments.summary(record.id);
    expect(after.cells.every((cell) => cell.status === "ended")).toBe(true);
    expect(after.status).toBe("ended");
    const reflexion = after.arms.find((arm) => arm.label === "Reflexion");
    expect(reflexion?.successByTrial.at(-1)).toBe(2);
    await context.workers.stop();
  });

  it("cold and warm arms: only the warm arm's runs carry the task's reflections into trial 1", async () => {
    const context = setup();
    const seed = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-03", strategy: "reflexion", modelId: "demo", writeMemory: { store: "lessons" } });
    await context.workers.untilSettled(seed.rootBranchId);
    const record = await context.experiments.start({
      name: "cold vs warm",
      environment: "qa",
      taskSet: "builtin",
      taskIds: ["qa-builtin-03"],
      arms: [
        { label: "cold", strategy: "reflexion", modelId: "demo" },
        { label: "warm", strategy: "reflexion", modelId: "demo", warmStart: { store: "lessons", maxEntries: 3 } },
      ],
      maxTrials: 3,
    });
    await context.workers.whenIdle();
    const summary = await context.experiments.summary(record.id);
    const byArm = new Map(summary.cells.map((cell) => [cell.arm, cell]));
    const warm = foldRun((await context.service.events(byArm.get("warm")?.runId ?? "")).events);
    const cold = foldRun((await context.service.events(byArm.get("cold")?.runId ?? "")).events);
    expect(cold.carriedIn).toBeNull();
    expect(cold.trials[0]?.memory).toEqual([]);
    expect(warm.carriedIn?.entries.map((entry) => entry.source.runId)).toEqual([seed.id]);
    expect(warm.trials[0]?.memory).toHaveLength(1);
    // The demo model reads the carried lesson: the warm arm solves at trial 1, the cold one at trial 2.
    expect(byArm.get("warm")?.solvedAtTrial).toBe(1);
    expect(byArm.get("cold")?.solvedAtTrial).toBe(2);
    await context.workers.stop();
  });
});
