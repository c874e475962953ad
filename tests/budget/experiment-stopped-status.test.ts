import { describe, expect, it } from "vitest";
import { emptyBranchSummary, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { experimentRecordSchema } from "@/lib/domain/experiment";
import { experimentStatusText, summarizeExperiment, type CellInput } from "@/lib/domain/experiment-summary";
import { progressText, successCurveRows } from "@/lib/graph/compare-arms";
import { familyDescriptor } from "@/lib/environments/descriptors";

// An experiment whose runs all stopped on their budget must not say "Running".

function record() {
  return experimentRecordSchema.parse({
    id: "exp-b",
    createdAt: "2026-12-01T10:00:00.000Z",
    taskSetName: "Built-in",
    definition: { name: "budget", environment: "qa", taskSet: "builtin", taskIds: ["t1", "t2"], arms: [{ label: "Reflexion", strategy: "reflexion", modelId: "demo" }], maxTrials: 3 },
  });
}

function cell(taskId: string, status: "ended" | "running" | "budget-exhausted", trialsEnded: number, outcome: "success" | "failure" | null): CellInput {
  const summary: BranchSummaryState = { ...emptyBranchSummary(`b-${taskId}`), status: status === "budget-exhausted" ? "paused" : status, outcome, trialsStarted: trialsEnded, trialsEnded };
  return { taskId, arm: "Reflexion", runId: `run-${taskId}`, summary, status };
}

const now = Date.parse("2026-12-01T10:05:00Z");
const qa = familyDescriptor("qa");

describe("an experiment whose runs stopped on their budget", () => {
  it("is stopped, not running: no ETA, the words say why and what to do", () => {
    const summary = summarizeExperiment(record(), [cell("t1", "budget-exhausted", 1, null), cell("t2", "budget-exhausted", 1, null)], now, qa);
    expect(summary.status).toBe("stopped");
    expect(summary.progress).toMatchObject({ done: 0, total: 2, etaMs: null, outOfBudget: 2 });
    expect(experimentStatusText(summary)).toBe("stopped: 2 runs out of budget — Continue with a larger budget");
    expect(progressText(summary.progress, summary.status, () => "never")).toBe("0/2 runs · stopped: 2 runs out of budget — Continue with a larger budget");
  });

  it("draws the curves only to the trials every run reached", () => {
    const summary = summarizeExperiment(record(), [cell("t1", "ended", 1, "success"), cell("t2", "budget-exhausted", 1, null)], now, qa);
    expect(summary.status).toBe("stopped");
    expect(summary.progress.etaMs).toBeNull();
    const arm = summary.arms[0]!;
    expect(arm.trialsReached).toBe(1);
    const rows = successCurveRows([arm]);
    expect(rows.map((row) => row.points[0]?.percent ?? null)).toEqual([50, null, null]);
  });

  it("is running while another run still runs, and unchanged without budget stops", () => {
    const running = summarizeExperiment(record(), [cell("t1", "running", 0, null), cell("t2", "budget-exhausted", 1, null)], now, qa);
    expect(running.status).toBe("running");
    const plain = summarizeExperiment(record(), [cell("t1", "ended", 1, "success"), cell("t2", "running", 1, null)], now, qa);
    expect(plain.status).toBe("running");
    expect(plain.arms[0]?.trialsReached).toBeUndefined();
    expect(plain.progress.etaMs).not.toBeNull();
  });
});
