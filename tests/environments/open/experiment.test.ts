import { describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { createServerContext } from "@/lib/server/app-context";

/** An experiment over built-in open tasks with the demo model: ReAct keeps failing, Reflexion passes every task at trial 2. */
describe("experiments over open tasks", () => {
  it("ReAct vs Reflexion on three open tasks", async () => {
    const context = createServerContext({ store: new MemoryRunStore(), workers: { pollMs: 10 } });
    const record = await context.experiments.start({
      name: "open tasks",
      environment: "open",
      taskSet: "builtin",
      taskIds: ["open-polite-refusal", "open-bug-report", "open-alt-text"],
      arms: [
        { label: "ReAct", strategy: "none", modelId: "demo" },
        { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
      ],
      maxTrials: 2,
    });
    for (const link of await context.store.experiments.listExperimentRuns(record.id)) {
      const run = await context.service.getRun(link.runId);
      await context.workers.untilSettled(run.rootBranchId);
    }
    const summary = await context.experiments.summary(record.id);
    await context.workers.stop();
    const arm = (label: string) => summary.arms.find((a) => a.label === label)!;
    expect(arm("ReAct").successByTrial.at(-1)).toBe(0);
    expect(arm("Reflexion").successByTrial).toEqual([0, 3]);
    expect(JSON.stringify(summary)).not.toContain("NaN");
  }, 60_000);
});
