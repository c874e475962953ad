import { describe, expect, it } from "vitest";
import { paperCurveNotes } from "@/lib/domain/paper-curves";
import type { Provenance } from "@/lib/domain/provenance";
import { curveKey, gapKey, successCurveRows, withUnrecordedSpans } from "@/lib/graph/compare-arms";
import { successCurveSvg } from "@/lib/graph/experiment-figures";
import { experimentSummarySchema } from "@/lib/domain/experiment";
import { familyDescriptor } from "@/lib/environments/descriptors";

const provenance = (source: string, notes: string[]): Provenance => ({ kind: "paper-log", label: "x", source, recordedBy: "authors", year: 2023, model: "gpt-4", notes, logSummary: null });
const arm = (successByTrial: number[], tasks: number) => ({ trials: successByTrial.length, tasks, successByTrial });
const code = familyDescriptor("code").paperLogCurves;
const household = familyDescriptor("household").paperLogCurves;

describe("the paper's runs, honestly", () => {
  it("a programming Reflexion log records only the final verdict: every earlier point is unrecorded", () => {
    const notes = paperCurveNotes(provenance("reflexion/programming_runs/root/reflexion_humaneval_py_pass_at_1/x.jsonl", ["Iterations = reflections + 1 (the loop stops when the internal tests pass)."]), code, arm([100, 120, 130], 164));
    expect(notes.unrecorded).toMatchObject({ fromTrial: 1, toTrial: 2 });
    expect(notes.reported).toBeNull();
    expect(paperCurveNotes(null, code, arm([1, 2], 3))).toEqual({ unrecorded: null, reported: null });
  });

  it("the ALFWorld Reflexion run carries the paper's reported 130/134 at trial 12", () => {
    const notes = paperCurveNotes(provenance("reflexion/noahshinn-reflexion/alfworld_runs/root/reflexion_run_logs", []), household, arm([84, 100], 134));
    expect(notes.reported).toEqual({ trial: 12, solved: 130, tasks: 134, label: "paper: 130/134 by trial 12" });
    expect(paperCurveNotes(provenance("reflexion/noahshinn-reflexion/alfworld_runs/root/base_run_logs", []), household, arm([84], 134)).reported).toBeNull();
  });

  it("other families' logs carry no notes, whatever their provenance says", () => {
    const inferred = provenance("reflexion/programming_runs/root/x.jsonl", ["Iterations = reflections + 1 (the loop stops when the internal tests pass)."]);
    expect(paperCurveNotes(inferred, household, arm([1, 2], 3))).toEqual({ unrecorded: null, reported: null });
    expect(paperCurveNotes(provenance("alfworld_runs/root/reflexion_run_logs", []), code, arm([1, 2], 3))).toEqual({ unrecorded: null, reported: null });
    expect(paperCurveNotes(inferred, familyDescriptor("qa").paperLogCurves, arm([1, 2], 3))).toEqual({ unrecorded: null, reported: null });
  });

  it("moves unrecorded points off the line onto a dashed gap that joins the first recorded point", () => {
    const rows = withUnrecordedSpans(successCurveRows([{ successByTrial: [1, 2, 3], tasks: 4 }]), [{ fromTrial: 1, toTrial: 2 }]);
    expect(rows.map((row) => row[curveKey(0)])).toEqual([undefined, undefined, 75]);
    expect(rows.map((row) => row[gapKey(0)])).toEqual([25, 50, 75]);
  });

  it("the SVG draws the unrecorded stretch dashed, names it, and circles the reported point", () => {
    const summary = experimentSummarySchema.pick({ experiment: true, arms: true }).parse({
      experiment: { id: "e", createdAt: "", taskSetName: "t", provenance: null, definition: { name: "Imported", environment: "code", taskSet: "t", taskIds: [], arms: [{ label: "HumanEval-Py Reflexion", strategy: "reflexion", modelId: "openai:gpt-4" }], maxTrials: 3, concurrency: 1 } },
      arms: [{ label: "HumanEval-Py Reflexion", strategy: "reflexion", modelId: "openai:gpt-4", tasks: 4, trials: 3, successByTrial: [1, 2, 3], finished: 4, calls: { live: 0, cached: 0 }, tokens: { input: 0, output: 0 }, costUsd: null, costByRole: { acting: null, evaluating: null, reflecting: null }, costToFirstSuccessUsd: null, falsePositives: 0, halts: 0 }],
    });
    const svg = successCurveSvg(summary, { unrecorded: [{ arm: "HumanEval-Py Reflexion", fromTrial: 1, toTrial: 2, note: "not recorded in the logs." }], marks: [{ trial: 3, percent: 70, label: "paper: 70%" }] });
    expect(svg.match(/class="unrecorded"/g)).toHaveLength(2);
    expect(svg).toContain("HumanEval-Py Reflexion, dashed and hollow: not recorded in the logs.");
    expect(svg).toContain("paper: 70%");
    expect(svg).toContain("No intervals recorded.");
  });
});
