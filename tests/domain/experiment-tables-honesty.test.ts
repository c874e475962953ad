import { describe, expect, it } from "vitest";
import { emptyBranchSummary, type BranchSummaryState } from "@/lib/domain/branch-summary";
import { experimentRecordSchema } from "@/lib/domain/experiment";
import { summarizeExperiment, type CellInput } from "@/lib/domain/experiment-summary";
import { latexTables, markdownTables } from "@/lib/domain/experiment-tables";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { describeExperiment } from "@/lib/cli/experiment-report";

/**
 * The tables for a paper say what the UI says: an arm on the offline demo model is a scripted
 * stand-in, and an Evaluator that reads the gold answer (HotpotQA EM) is an oracle signal.
 */

function summaryOf(environment: string, modelIds: string[]) {
  const arms = modelIds.map((modelId, index) => ({ label: `arm${index + 1}`, strategy: "reflexion" as const, modelId }));
  const record = experimentRecordSchema.parse({
    id: "exp-h",
    createdAt: "2026-12-01T10:00:00.000Z",
    taskSetName: "Built-in",
    definition: { name: "honesty", environment, taskSet: "builtin", taskIds: ["t1"], arms, maxTrials: 2 },
  });
  const cells: CellInput[] = arms.map((arm) => {
    const summary: BranchSummaryState = { ...emptyBranchSummary(`b-${arm.label}`), status: "ended", outcome: "success", trialsStarted: 1, trialsEnded: 1 };
    return { taskId: "t1", repetition: 1, arm: arm.label, runId: `run-${arm.label}`, summary, status: "ended" };
  });
  return summarizeExperiment(record, cells, Date.parse("2026-12-01T10:05:00Z"), familyDescriptor(environment));
}

describe("the exported tables' caveats", () => {
  it("name the demo arms as a scripted stand-in and QA's EM as an oracle signal, in Markdown and LaTeX", () => {
    const summary = summaryOf("qa", ["demo", "openai:gpt-4o-mini"]);
    const md = markdownTables(summary, familyDescriptor("qa").metric);
    expect(md).toContain("Model demo (arms arm1) is the offline demo model, a scripted stand-in, not an LLM");
    expect(md).toContain("EM compares the answer with the gold answer: an oracle signal");
    const tex = latexTables(summary, familyDescriptor("qa").metric);
    expect(tex).toMatch(/\\caption\{honesty\..*scripted stand-in, not an LLM.*oracle signal/);
    expect(/[^\x00-\x7f]/.test(tex)).toBe(false);
  });

  it("say nothing of the kind for a real model on a family whose metric is not an oracle", () => {
    const summary = summaryOf("household", ["openai:gpt-4o-mini"]);
    const md = markdownTables(summary, familyDescriptor("household").metric);
    expect(md).not.toContain("stand-in");
    expect(md).not.toContain("oracle");
  });

  it("the CLI's experiment summary says the same: the demo arm a scripted stand-in, QA's EM an oracle signal, and neither for a real model on household", () => {
    const qa = describeExperiment(summaryOf("qa", ["demo", "openai:gpt-4o-mini"]));
    expect(qa).toContain("arm1 [reflexion, demo — demo model: a scripted stand-in, not an LLM]");
    expect(qa).toContain("note: EM compares the answer with the gold answer: an oracle signal");
    const household = describeExperiment(summaryOf("household", ["openai:gpt-4o-mini"]));
    expect(household).not.toContain("oracle");
    expect(household).not.toContain("stand-in");
  });
});
