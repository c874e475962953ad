import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { forkOutlookAfterEvaluation } from "@/lib/domain/fork-outlook";
import { nextActorStep } from "@/lib/domain/next-step";
import { codeNextAction, forkEndsExplanation, programExample } from "@/lib/graph";
import { strategyHint, strategyLabel } from "@/components/ui/strategy-labels";
import { demoOnImportedWarning, runIntro } from "@/components/home/family-texts";
import { CODE_TASK, codeRun } from "./code-fixtures";
import { EventLog, makeRunConfig, twoTrialReflexionRun } from "./fixtures";

const JS_TASK = {
  id: "code-js-01",
  language: "javascript",
  prompt: "/**\n * Splits `items` into chunks.\n *\n * chunk([1, 2, 3, 4], 2) // [[1, 2], [3, 4]]\n */\nfunction chunk(items, size)",
  entryPoint: "chunk",
  hiddenTests: "assert.deepStrictEqual(chunk([], 2), []);",
  referenceSolution: null,
  setup: null,
  sourceFormat: "builtin",
};

function codeStart(task: Record<string, unknown> = { ...CODE_TASK }) {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig({ environment: "code", taskId: String(task.id), task, maxStepsPerTrial: 2 }) });
  return log;
}

describe("the Actor's next step (as the server's action edit places it)", () => {
  it("is step 1 of trial 1 before anything ran, then the next step of the open trial, then step 1 of the next trial", () => {
    const run = codeRun();
    const events = run.log.events;
    expect(nextActorStep(foldRun(events.slice(0, 1)))).toEqual({ trial: 1, step: 1 });
    const afterTests = events.findIndex((event) => event.id === run.ids.writeTestsObservation) + 1;
    expect(nextActorStep(foldRun(events.slice(0, afterTests)))).toEqual({ trial: 1, step: 2 });
    const afterTrial1 = events.findIndex((event) => event.id === run.ids.trial2Start);
    expect(nextActorStep(foldRun(events.slice(0, afterTrial1)))).toEqual({ trial: 2, step: 1 });
  });
});

describe("codeNextAction: what a person writes next on a code run", () => {
  it("asks for asserts in the task's language in trial 1 step 1", () => {
    const python = codeNextAction(foldRun(codeStart().events));
    expect(python).toMatchObject({ kind: "tests", language: "python", trial: 1, step: 1 });
    expect(python?.placeholder).toBe("assert running_max(...) == ...");
    const js = codeNextAction(foldRun(codeStart({ ...JS_TASK }).events));
    expect(js).toMatchObject({ kind: "tests", language: "javascript" });
    expect(js?.placeholder).toBe("assert.deepStrictEqual(chunk(...), ...);");
  });

  it("asks for a program, from the task's signature, everywhere else", () => {
    const run = codeRun();
    const afterTests = run.log.events.findIndex((event) => event.id === run.ids.writeTestsObservation) + 1;
    const next = codeNextAction(foldRun(run.log.events.slice(0, afterTests)));
    expect(next).toMatchObject({ kind: "program", trial: 1, step: 2 });
    expect(next?.placeholder).toBe("def running_max(xs: list[int]) -> list[int]:\n    ...");
    const afterTrial1 = run.log.events.findIndex((event) => event.id === run.ids.trial2Start);
    expect(codeNextAction(foldRun(run.log.events.slice(0, afterTrial1)))).toMatchObject({ kind: "program", trial: 2, step: 1 });
    expect(programExample("javascript", "chunk", JS_TASK.prompt)).toBe("function chunk(items, size) {\n  // …\n}");
    expect(programExample("typescript", "f", null)).toBe("function f(...) {\n  // …\n}");
  });

  it("is null on other families", () => {
    expect(codeNextAction(foldRun(twoTrialReflexionRun().log.events.slice(0, 2)))).toBeNull();
  });
});

describe("forking after an evaluation", () => {
  const run = codeRun();
  const state = foldRun(run.log.events);

  it("writes the reflection again after a failed trial that is not the last", () => {
    expect(forkOutlookAfterEvaluation(state, 1)).toEqual({ kind: "reflects" });
    expect(forkEndsExplanation({ kind: "reflects" }, 1)).toBeNull();
  });

  it("ends where this branch ended after a false positive: no reflection, nothing to replay", () => {
    const outlook = forkOutlookAfterEvaluation(state, 2);
    expect(outlook).toEqual({ kind: "ends", reason: "false-positive", reflects: true });
    const text = forkEndsExplanation(outlook, 2) ?? "";
    expect(text).toMatch(/internal tests passed/);
    expect(text).toMatch(/end exactly as this one did/);
    expect(text).not.toMatch(/writes .* again/);
    expect(text).toMatch(/fork from an earlier reflection/);
  });

  it("starts the next trial for a strategy without reflections, and ends after the last trial", () => {
    const none = foldRun(run.log.events.map((event) => (event.type === "run-start" ? { ...event, data: { config: { ...event.data.config, strategy: "none" as const } } } : event)));
    expect(forkOutlookAfterEvaluation(none, 1)).toEqual({ kind: "next-trial", strategy: "none" });
    const oneTrial = foldRun(run.log.events.map((event) => (event.type === "run-start" ? { ...event, data: { config: { ...event.data.config, maxTrials: 1 } } } : event)));
    expect(forkOutlookAfterEvaluation(oneTrial, 1)).toEqual({ kind: "ends", reason: "last-trial", reflects: true });
    // A strategy without reflections is not told to fork from one.
    const noneLast = foldRun(run.log.events.map((event) => (event.type === "run-start" ? { ...event, data: { config: { ...event.data.config, strategy: "none" as const, maxTrials: 2 } } } : event)));
    const explanation = forkEndsExplanation(forkOutlookAfterEvaluation(noneLast, 2), 2) ?? "";
    expect(explanation).toMatch(/To try again, start a new run/);
    expect(explanation).not.toMatch(/earlier reflection/);
    expect(forkOutlookAfterEvaluation(state, 9)).toBeNull();
  });
});

describe("strategy labels per family", () => {
  it("calls `none` the paper's simple baseline on code tasks, ReAct only elsewhere", () => {
    expect(strategyLabel("none", "code")).toBe("Simple (no memory)");
    expect(strategyLabel("none", "qa")).toBe("ReAct only");
    expect(strategyLabel("none", "household")).toBe("ReAct only");
    expect(strategyLabel("none")).toBe("ReAct only");
    expect(strategyHint("none", "code")).toMatch(/simple baseline/);
  });

  it("gives every strategy its own label (not only ReAct only / Reflexion)", () => {
    expect(strategyLabel("last-attempt", "qa")).toBe("Last attempt (EPM)");
    expect(strategyLabel("cot", "qa")).toBe("CoT + Reflexion");
    expect(strategyLabel("reflexion", "code")).toBe("Reflexion");
  });
});

describe("new-run form texts per family", () => {
  it("says what the demo model writes on code tasks it has no script for", () => {
    expect(demoOnImportedWarning("code")).toMatch(/placeholder program that raises \(NotImplementedError in Python, Error in JavaScript\/TypeScript\)/);
    expect(demoOnImportedWarning("code")).not.toMatch(/unknown/);
    expect(demoOnImportedWarning("qa")).toMatch(/answers 'unknown'/);
  });

  it("describes the code loop (tests, implementation, internal tests, hidden tests for reporting) instead of Thought → Action → Observation", () => {
    const intro = runIntro("code");
    expect(intro).not.toMatch(/Thought → Action → Observation/);
    expect(intro).toMatch(/internal unit tests/);
    expect(intro).toMatch(/implementation/);
    expect(intro).toMatch(/hidden tests .* reporting only/);
    expect(runIntro("qa")).toMatch(/Thought → Action → Observation/);
  });
});
