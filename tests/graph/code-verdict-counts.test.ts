import { describe, expect, it } from "vitest";
import type { TrialView } from "@/lib/domain/fold-run";
import { codeVerdictView } from "@/lib/graph/code-views";

/** A code trial with no recorded test run in its steps (as after a Self-Refine round, whose program only the Evaluator ran). */
const trial = { trial: 1, steps: [], memory: [], evicted: [], answer: "def f(): pass", evaluation: null, outcome: "success", cancelled: false, endReason: null, reflection: null, callIds: [], refinements: [], startEventId: "e1" } as unknown as TrialView;

function evaluation(details: Record<string, unknown>) {
  return { trial: 1, verdict: "pass", score: 1, feedback: "", evaluatorKind: "unit-tests", oracle: false, details, falsePositive: false, eventId: "e2" } as unknown as NonNullable<TrialView["evaluation"]>;
}

describe("a code trial's verdict counts", () => {
  it("are the Evaluator's own when it recorded them (the refined program's run)", () => {
    expect(codeVerdictView(trial, evaluation({ internalPassed: 3, internalTotal: 3 }))).toMatchObject({ internal: "pass", internalPassed: 3, internalTotal: 3 });
  });

  it("are unknown without a count and without a test run in the steps", () => {
    expect(codeVerdictView(trial, evaluation({}))).toMatchObject({ internalPassed: null, internalTotal: null });
  });
});
