import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { emptyBranchSummary, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { experimentRecordSchema, experimentSummaryLine } from "@/lib/domain/experiment";
import { meanF1ByTrial, summarizeExperiment, type CellInput } from "@/lib/domain/experiment-summary";
import { f1ByTrial } from "@/lib/server/experiment-export";
import { foldRun } from "@/lib/domain/fold-run";
import { ArmTable } from "@/components/experiments/arm-table";
import { twoTrialReflexionRun } from "../../graph/fixtures";
import { familyDescriptor } from "@/lib/environments/descriptors";

// Mean F1 per arm per trial in experiment summaries, the export and the arm table.

const ended = (f1ByTrial: number[]) => ({ f1ByTrial, ended: true });

describe("meanF1ByTrial", () => {
  it("averages trial k's F1 over the runs, carrying an ended run's last F1 forward", () => {
    // Run A solved at trial 1 (F1 1); run B: 0.5 then 1; run C: 0, 0, 0.25.
    expect(meanF1ByTrial([ended([1]), ended([0.5, 1]), ended([0, 0, 0.25])], 3)).toEqual([0.5, 2 / 3, 0.75]);
  });

  it("leaves out a run still short of the trial, and gives null where nobody contributes", () => {
    expect(meanF1ByTrial([{ f1ByTrial: [0.5], ended: false }], 2)).toEqual([0.5, null]);
    expect(meanF1ByTrial([ended([0.2]), { f1ByTrial: [0.4], ended: false }], 2)).toEqual([0.30000000000000004, 0.2]);
  });

  it("is undefined when no run carries F1 (other families)", () => {
    expect(meanF1ByTrial([{ ended: true }, { f1ByTrial: [], ended: true }], 3)).toBeUndefined();
  });
});

function record() {
  return experimentRecordSchema.parse({
    id: "exp-1",
    createdAt: "2026-12-01T10:00:00.000Z",
    taskSetName: "Built-in",
    definition: {
      name: "f1",
      environment: "qa",
      taskSet: "builtin",
      taskIds: ["t1", "t2"],
      arms: [{ label: "Reflexion", strategy: "reflexion", modelId: "demo" }],
      maxTrials: 2,
    },
  });
}

function cell(taskId: string, trialsEnded: number, outcome: "success" | "failure", f1: number[] | undefined): CellInput {
  const summary: BranchSummaryState = { ...emptyBranchSummary(`b-${taskId}`), status: "ended", outcome, trialsStarted: trialsEnded, trialsEnded };
  return { taskId, arm: "Reflexion", runId: `run-${taskId}`, summary, status: "ended", ...(f1 === undefined ? {} : { f1ByTrial: f1 }) };
}

describe("experiment summaries", () => {
  it("report each arm's mean F1 per trial next to the success curve, and in the --json line", () => {
    const summary = summarizeExperiment(record(), [cell("t1", 1, "success", [1]), cell("t2", 2, "failure", [0, 0.5])], Date.parse("2026-12-01T10:01:00Z"), familyDescriptor("qa"));
    expect(summary.arms[0]?.successByTrial).toEqual([1, 1]);
    expect(summary.arms[0]?.meanF1ByTrial).toEqual([0.5, 0.75]);
    expect(JSON.parse(experimentSummaryLine(summary)).arms[0].meanF1ByTrial).toEqual([0.5, 0.75]);
    const html = renderToStaticMarkup(createElement(ArmTable, { arms: summary.arms, environment: "qa" }));
    expect(html).toContain("F1 trial 1 / last");
    expect(html).toMatch(/data-testid="arm-f1"[^>]*>0\.500 \/ 0\.750</);
  });

  it("leave the field out when no cell carries F1, and the table says —", () => {
    const summary = summarizeExperiment(record(), [cell("t1", 1, "success", undefined), cell("t2", 2, "failure", undefined)], Date.parse("2026-12-01T10:01:00Z"), familyDescriptor("qa"));
    expect(summary.arms[0]).not.toHaveProperty("meanF1ByTrial");
    expect(experimentSummaryLine(summary)).not.toContain("meanF1ByTrial");
    const html = renderToStaticMarkup(createElement(ArmTable, { arms: summary.arms, environment: "qa" }));
    expect(html).toMatch(/data-testid="arm-f1"[^>]*><span[^>]*>—</);
    expect(renderToStaticMarkup(createElement(ArmTable, { arms: summary.arms, environment: "household" }))).not.toContain("F1 trial 1");
  });
});

describe("the export's per-trial F1", () => {
  it("reads details.f1 of every evaluation, and nothing when one lacks it", () => {
    const state = foldRun(twoTrialReflexionRun().log.events);
    expect(f1ByTrial(state)).toBeUndefined(); // the fixture's evaluations predate F1
    const scored = {
      ...state,
      trials: state.trials.map((trial, index) => (trial.evaluation ? { ...trial, evaluation: { ...trial.evaluation, details: { ...trial.evaluation.details, f1: index === 0 ? 0.25 : 1 } } } : trial)),
    };
    expect(f1ByTrial(scored)).toEqual([0.25, 1]);
  });
});
