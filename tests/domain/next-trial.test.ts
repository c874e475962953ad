import { describe, expect, it } from "vitest";
import type { Strategy } from "@/lib/domain/config";
import type { MemoryItem } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { forkOutlookAfterEvaluation } from "@/lib/domain/fork-outlook";
import { afterTrial, nextTrialView } from "@/lib/domain/next-trial";
import { decideNext } from "@/lib/engine/decide";
import { makeRunConfig, twoTrialReflexionRun } from "../graph/fixtures";

const ALL_STRATEGIES: Strategy[] = ["none", "reflexion", "last-attempt", "last-attempt-and-reflexion", "cot", "cot-gold-context"];

describe("afterTrial: the loop's move after a judged trial (paper §3)", () => {
  const config = { strategy: "reflexion" as const, maxTrials: 3 };
  const judged = { trial: 1, passed: false, hiddenVerdict: null, reflected: false };

  it("reflects after a failure when the strategy reflects, then starts the next trial", () => {
    expect(afterTrial(config, judged)).toEqual({ kind: "reflect", trial: 1 });
    expect(afterTrial(config, { ...judged, reflected: true })).toEqual({ kind: "start-trial", trial: 2 });
    expect(afterTrial({ ...config, strategy: "none" }, judged)).toEqual({ kind: "start-trial", trial: 2 });
    expect(afterTrial({ ...config, strategy: "last-attempt" }, judged)).toEqual({ kind: "start-trial", trial: 2 });
  });

  it("ends on a pass, and after the last trial without a reflection", () => {
    expect(afterTrial(config, { ...judged, passed: true })).toEqual({ kind: "end-run", outcome: "success", reason: "passed" });
    expect(afterTrial(config, { ...judged, trial: 3 })).toEqual({ kind: "end-run", outcome: "failure", reason: "last-trial" });
  });

  it("takes the run's outcome from the hidden tests on code tasks (pass@1)", () => {
    expect(afterTrial(config, { ...judged, passed: true, hiddenVerdict: "fail" })).toEqual({ kind: "end-run", outcome: "failure", reason: "false-positive" });
    expect(afterTrial(config, { ...judged, trial: 3, hiddenVerdict: "pass" })).toEqual({ kind: "end-run", outcome: "success", reason: "last-trial" });
  });
});

describe("nextTrialView: what the next trial's Actor prompt will carry", () => {
  const handWritten: MemoryItem = { id: "hand-1", text: "Search both magazines first.", trial: null };
  const reflections: MemoryItem[] = [1, 2, 3].map((trial) => ({ id: `r${trial}`, text: `lesson ${trial}`, trial }));
  const viewOf = (strategy: Strategy, memory: MemoryItem[] = reflections, memoryWindow: number | null = 2) =>
    nextTrialView({ config: makeRunConfig({ strategy, memoryWindow }), trials: [], memory });

  it("carries no memory under none and last-attempt, a hand-written entry included", () => {
    for (const strategy of ["none", "last-attempt"] as const) {
      const view = viewOf(strategy, [handWritten]);
      expect(view).toMatchObject({ trial: 1, reflectionsInPrompt: false, inContext: [] });
      expect(view?.leftOut).toEqual([handWritten]);
    }
  });

  it("applies the run's Ω, or the strategy's fixed one", () => {
    expect(viewOf("reflexion")?.inContext.map((item) => item.id)).toEqual(["r2", "r3"]);
    expect(viewOf("reflexion")?.leftOut.map((item) => item.id)).toEqual(["r1"]);
    expect(viewOf("reflexion", reflections, null)?.inContext).toHaveLength(3);
    // Only the newest reflection, even when an old log recorded a larger Ω.
    expect(viewOf("last-attempt-and-reflexion", reflections, 3)?.inContext.map((item) => item.id)).toEqual(["r3"]);
  });

  it("includes the last attempt from trial 2 on for the EPM strategies", () => {
    const run = twoTrialReflexionRun();
    const state = foldRun(run.log.events.slice(0, run.marks.afterReflection));
    expect(nextTrialView(state)).toMatchObject({ trial: 2, lastAttempt: false });
    const epm = { ...state, config: makeRunConfig({ strategy: "last-attempt" }) };
    expect(nextTrialView(epm)).toMatchObject({ trial: 2, lastAttempt: true, inContext: [] });
    expect(viewOf("last-attempt")?.lastAttempt).toBe(false);
    expect(nextTrialView({ config: null, trials: [], memory: [] })).toBeNull();
  });
});

describe("forkOutlookAfterEvaluation agrees with the engine's next action right after that evaluation", () => {
  const run = twoTrialReflexionRun();
  // Trial 1's evaluation and trial-end, before its reflection: what a fork from there sees.
  const afterTrial1 = run.log.events.slice(0, run.marks.afterTrial1Steps + 2);

  it.each(ALL_STRATEGIES.flatMap((strategy) => [1, 2].map((maxTrials) => [strategy, maxTrials] as const)))("%s with %d trials", (strategy, maxTrials) => {
    const events = afterTrial1.map((event) =>
      event.type === "run-start" ? { ...event, data: { config: { ...event.data.config, strategy, maxTrials } } } : event,
    );
    const state = foldRun(events);
    const outlook = forkOutlookAfterEvaluation(state, 1);
    const next = decideNext(state);
    const expected = next.kind === "end-run" ? "ends" : next.kind === "reflect" ? "reflects" : next.kind === "start-trial" ? "next-trial" : "?";
    expect(outlook?.kind).toBe(expected);
  });
});
