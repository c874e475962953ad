import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { nextActorStep, openTrialProgress, stepBudget } from "@/lib/domain/next-step";
import { decideNext } from "@/lib/engine/decide";
import { EventLog, makeRunConfig, twoTrialReflexionRun } from "../graph/fixtures";

/** A paused run whose open trial 1 has `steps` completed steps (none finishing), with the given step budget. */
function openTrial(steps: number, config = makeRunConfig({ maxStepsPerTrial: 2 })) {
  const log = new EventLog();
  log.add("run-start", { config });
  log.add("trial-start", { trial: 1, memory: [], evicted: [] });
  for (let step = 1; step <= steps; step += 1) {
    log.step(1, step, `Thought ${step}.`, { text: "Search[Arthur's Magazine]", type: "Search", argument: "Arthur's Magazine" }, { text: "Arthur's Magazine (1844–1846)." });
  }
  return log;
}

describe("stepBudget", () => {
  it("is the strategy's fixed budget when it has one, else the run's maxStepsPerTrial", () => {
    expect(stepBudget({ strategy: "reflexion", maxStepsPerTrial: 6 })).toBe(6);
    expect(stepBudget({ strategy: "cot", maxStepsPerTrial: 6 })).toBe(1);
    expect(stepBudget({ strategy: "cot-gold-context", maxStepsPerTrial: 4 })).toBe(1);
  });
});

describe("openTrialProgress", () => {
  it("acts until the budget is spent, then is out of steps", () => {
    const config = makeRunConfig({ maxStepsPerTrial: 2 });
    const trialAfter = (steps: number) => foldRun(openTrial(steps, config).events).trials[0]!;
    expect(openTrialProgress(trialAfter(0), config)).toEqual({ kind: "acting", step: 1, completed: 0 });
    expect(openTrialProgress(trialAfter(1), config)).toEqual({ kind: "acting", step: 2, completed: 1 });
    expect(openTrialProgress(trialAfter(2), config)).toEqual({ kind: "out-of-steps", budget: 2 });
  });

  it("is finished when the last observation ended the episode", () => {
    const run = twoTrialReflexionRun();
    const state = foldRun(run.log.events.slice(0, run.marks.afterTrial2Start + 4));
    expect(openTrialProgress(state.trials[1]!, state.config!)).toEqual({ kind: "finished", answer: "Arthur's Magazine" });
  });
});

describe("nextActorStep: where a person's action is placed", () => {
  it("is step 1 of trial 1 before anything ran, then the next step of the open trial", () => {
    expect(nextActorStep(foldRun(openTrial(0).events.slice(0, 1)))).toEqual({ trial: 1, step: 1 });
    expect(nextActorStep(foldRun(openTrial(1).events))).toEqual({ trial: 1, step: 2 });
  });

  it("is step 1 of the next trial once the open trial has spent its budget (not a step the engine never takes)", () => {
    const log = openTrial(2);
    log.add("run-pause", { reason: "breakpoint", detail: "after the observation", at: "after-observation:1:2" });
    expect(nextActorStep(foldRun(log.events))).toEqual({ trial: 2, step: 1 });
  });

  it("is step 1 of the next trial under cot after one step, whatever maxStepsPerTrial says", () => {
    expect(nextActorStep(foldRun(openTrial(1, makeRunConfig({ strategy: "cot", maxStepsPerTrial: 6 })).events))).toEqual({ trial: 2, step: 1 });
  });

  it("is step 1 of the next trial after a finished episode and after a closed trial", () => {
    const run = twoTrialReflexionRun();
    expect(nextActorStep(foldRun(run.log.events.slice(0, run.marks.afterReflection)))).toEqual({ trial: 2, step: 1 });
    expect(nextActorStep(foldRun(run.log.events.slice(0, run.marks.afterTrial2Start + 4)))).toEqual({ trial: 3, step: 1 });
  });

  it("names the step the engine takes whenever the engine's next action is an Actor step", () => {
    const run = twoTrialReflexionRun();
    let actorSteps = 0;
    for (let length = 1; length <= run.log.events.length; length += 1) {
      const state = foldRun(run.log.events.slice(0, length));
      const next = decideNext(state);
      if (next.kind !== "actor-step") continue;
      actorSteps += 1;
      expect(nextActorStep(state), `after ${length} events`).toEqual({ trial: next.trial, step: next.step });
    }
    expect(actorSteps).toBeGreaterThan(2);
  });
});
