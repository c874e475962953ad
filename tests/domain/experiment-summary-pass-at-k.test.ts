import { describe, expect, it } from "vitest";
import { emptyBranchSummary, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { experimentRecordSchema } from "@/lib/domain/experiment";
import { summarizeExperiment, type CellInput } from "@/lib/domain/experiment-summary";
import { FAMILY_DESCRIPTORS } from "@/lib/environments/descriptors";

/**
 * pass@k is reported for the families whose Evaluator has hidden tests (the descriptor's
 * `hiddenTests`, passed in by the caller), never by comparing the family's id.
 */

function record(environment: string) {
  return experimentRecordSchema.parse({
    id: "exp-k",
    createdAt: "2026-12-01T10:00:00.000Z",
    taskSetName: "Built-in",
    definition: { name: "k", environment, taskSet: "builtin", taskIds: ["t1", "t2"], arms: [{ label: "Reflexion", strategy: "reflexion", modelId: "demo" }], maxTrials: 2, repeats: 2 },
  });
}

function cell(taskId: string, repetition: number, solved: boolean): CellInput {
  const summary: BranchSummaryState = { ...emptyBranchSummary(`b-${taskId}-${repetition}`), status: "ended", outcome: solved ? "success" : "failure", trialsStarted: 1, trialsEnded: 1 };
  return { taskId, repetition, arm: "Reflexion", runId: `run-${taskId}-${repetition}`, summary, status: "ended" };
}

// t1 passes in both repetitions, t2 in one of two: pass@1 = (1 + 1/2) / 2, pass@2 = 1.
const cells = [cell("t1", 1, true), cell("t1", 2, true), cell("t2", 1, true), cell("t2", 2, false)];
const now = Date.parse("2026-12-01T10:05:00Z");

describe("pass@k in experiment summaries", () => {
  it("is the unbiased estimate over the repetitions for each family with hidden tests", () => {
    const withHidden = FAMILY_DESCRIPTORS.filter((descriptor) => descriptor.hiddenTests);
    expect(withHidden.length).toBeGreaterThan(0);
    for (const descriptor of withHidden) {
      const summary = summarizeExperiment(record(descriptor.id), cells, now, descriptor);
      expect(summary.arms[0]?.passAtK).toEqual([
        { k: 1, value: 0.75 },
        { k: 2, value: 1 },
      ]);
    }
  });

  it("is left out for the other families, and for a single repetition", () => {
    for (const descriptor of FAMILY_DESCRIPTORS.filter((candidate) => !candidate.hiddenTests)) {
      expect(summarizeExperiment(record(descriptor.id), cells, now, descriptor).arms[0]).not.toHaveProperty("passAtK");
    }
    expect(summarizeExperiment(record("code"), cells, now, { hiddenTests: false }).arms[0]).not.toHaveProperty("passAtK");
    const single = experimentRecordSchema.parse({ ...record("code"), definition: { ...record("code").definition, repeats: 1 } });
    expect(summarizeExperiment(single, cells.filter((c) => c.repetition === 1), now, { hiddenTests: true }).arms[0]).not.toHaveProperty("passAtK");
  });
});
