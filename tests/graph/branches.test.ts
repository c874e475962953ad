import { describe, expect, it } from "vitest";
import type { BranchSummary } from "@/lib/domain/api";
import { branchLabel, branchTree, forkPointsByEventId, reflectionAt } from "@/lib/graph";
import { twoTrialReflexionRun } from "./fixtures";

function branch(id: string, parentBranchId: string | null, forkSeq: number | null, overrides: Partial<BranchSummary> = {}): BranchSummary {
  return {
    id,
    parentBranchId,
    forkSeq,
    createdAt: "2026-11-30T12:00:00.000Z",
    status: "ended",
    replayMode: parentBranchId === null ? "live" : "recorded",
    reason: parentBranchId === null ? "root" : "edit",
    trials: 2,
    outcome: "success",
    liveCalls: 3,
    cachedCalls: 0,
    ...overrides,
  };
}

describe("forkPointsByEventId", () => {
  it("gives each evaluation and reflection the first checkpoint after it in the same trial", () => {
    const run = twoTrialReflexionRun();
    // The fixture has one checkpoint, after trial 1's reflection; add the one the engine writes after an evaluation.
    const events = run.log.events;
    const evaluation1 = events.find((event) => event.type === "evaluation-end" && event.data.trial === 1);
    const checkpoint = events.find((event) => event.type === "checkpoint");
    if (!evaluation1 || !checkpoint) throw new Error("fixture changed");
    const points = forkPointsByEventId(events);
    // Trial 1's evaluation has no checkpoint of its own in the fixture, so it forks at the reflection's.
    expect(points.get(evaluation1.id)).toEqual({ atSeq: checkpoint.seq, trial: 1, checkpointId: checkpoint.id });
    expect(points.get(run.reflectionId)).toEqual({ atSeq: checkpoint.seq, trial: 1, checkpointId: checkpoint.id });
    // Trial 2's evaluation has no checkpoint after it: no fork point (yet).
    const evaluation2 = events.find((event) => event.type === "evaluation-end" && event.data.trial === 2);
    expect(evaluation2 && points.has(evaluation2.id)).toBe(false);
  });

  it("uses the checkpoint right after the evaluation when the engine wrote one, and ignores other trials' checkpoints", () => {
    const run = twoTrialReflexionRun();
    const log = run.log;
    // Rebuild trial 1's end the way the engine writes it: evaluation, trial-end, checkpoint, reflection, checkpoint.
    log.events.splice(run.marks.afterTrial1Steps);
    const evaluation = log.add("evaluation-end", { trial: 1, verdict: "fail", score: 0, feedback: "No answer.", evaluatorKind: "exact-match", oracle: true, details: {} });
    log.add("trial-end", { trial: 1, outcome: "halted", reason: "step budget" });
    const afterEvaluation = log.add("checkpoint", { trial: 1, digest: "d1" });
    const call = log.call("reflector", 1, null, "Reflect", "Lesson.");
    const reflection = log.add("reflection-end", { trial: 1, text: "Lesson.", callId: call });
    const afterReflection = log.add("checkpoint", { trial: 1, digest: "d2" });
    log.add("checkpoint", { trial: 2, digest: "other trial" });
    const points = forkPointsByEventId(log.events);
    expect(points.get(evaluation.id)?.atSeq).toBe(afterEvaluation.seq);
    expect(points.get(reflection.id)?.atSeq).toBe(afterReflection.seq);
  });
});

describe("reflectionAt", () => {
  it("returns the reflection's text as of a seq, edits up to that seq applied", () => {
    const run = twoTrialReflexionRun();
    const checkpoint = run.log.events.find((event) => event.type === "checkpoint");
    if (!checkpoint) throw new Error("fixture changed");
    const original = reflectionAt(run.log.events, 1, checkpoint.seq);
    expect(original?.eventId).toBe(run.reflectionId);
    expect(original?.text).toMatch(/^I wasted a step/);
    const edit = run.log.add("reflection-edit", { reflectionEventId: run.reflectionId, oldText: original?.text ?? "", newText: "Edited lesson.", note: null });
    // A fork at the checkpoint does not see an edit made after it…
    expect(reflectionAt(run.log.events, 1, checkpoint.seq)?.text).toMatch(/^I wasted a step/);
    // …but a view at the edit's seq does.
    expect(reflectionAt(run.log.events, 1, edit.seq)?.text).toBe("Edited lesson.");
    expect(reflectionAt(run.log.events, 2, edit.seq)).toBeNull();
    expect(reflectionAt(run.log.events, 1, run.marks.afterTrial1Steps)).toBeNull();
  });
});

describe("branchTree", () => {
  it("lists the root, then each branch under its parent, depth first", () => {
    const rows = branchTree([
      branch("root", null, null),
      branch("a", "root", 20),
      branch("b", "root", 34),
      branch("a1", "a", 40, { status: "running", outcome: null }),
    ]);
    expect(rows.map((row) => [row.branch.id, row.depth])).toEqual([
      ["root", 0],
      ["a", 1],
      ["a1", 2],
      ["b", 1],
    ]);
    expect(rows.map((row) => branchLabel(row))).toEqual(["main", "branch 1", "branch 3", "branch 2"]);
  });

  it("keeps a branch whose parent is missing, at depth 1, and never loops", () => {
    const rows = branchTree([branch("root", null, null), branch("x", "gone", 5)]);
    expect(rows.map((row) => [row.branch.id, row.depth])).toEqual([
      ["root", 0],
      ["x", 1],
    ]);
    expect(branchTree([])).toEqual([]);
  });
});
