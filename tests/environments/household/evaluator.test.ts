import { describe, expect, it } from "vitest";
import type { TrajectoryStep } from "@/lib/domain/environment";
import { createHouseholdEnvironment, householdEnvironment } from "@/lib/environments/household";
import { detectHalt, evaluateHousehold, householdEarlyStop } from "@/lib/environments/household/evaluator";
import { PUT_PENCIL_ON_DESK, play } from "./fixtures";

function steps(...pairs: Array<[string, string]>): TrajectoryStep[] {
  return pairs.map(([actionText, observation], index) => ({ step: index + 1, thought: "", actionText, observation }));
}

const nothing: [string, string] = ["use desklamp 1", "Nothing happens."];

describe("the repetition heuristic", () => {
  it("halts when the same action gives the same observation 3 times in a row", () => {
    expect(householdEarlyStop(steps(nothing, nothing))).toBeNull();
    expect(householdEarlyStop(steps(nothing, nothing, nothing))).toBe(
      'The same action "use desklamp 1" gave the same observation "Nothing happens." 3 times in a row.',
    );
    expect(householdEarlyStop(steps(["go to desk 1", "On the desk 1, you see nothing."], nothing, nothing, nothing))).not.toBeNull();
  });

  it("needs the same observation too, and consecutive repeats", () => {
    expect(householdEarlyStop(steps(["go to drawer 1", "The drawer 1 is closed."], ["go to drawer 1", "Nothing happens."], ["go to drawer 1", "Nothing happens."]))).toBeNull();
    expect(householdEarlyStop(steps(nothing, nothing, ["look", "You are facing the desk 1. Next to it, you see nothing."], nothing))).toBeNull();
  });

  it("compares actions as the parser reads them (case, spacing, a leading >)", () => {
    expect(householdEarlyStop(steps(["Use desklamp 1", "Nothing happens."], [">use  desklamp 1", "Nothing happens."], nothing))).not.toBeNull();
  });

  it("counts think: loops", () => {
    const think: [string, string] = ["think: done.", "OK."];
    expect(householdEarlyStop(steps(think, think, think))).toContain('"think: done."');
  });

  it("is configurable", () => {
    expect(detectHalt(steps(nothing, nothing), { repeatLimit: 2, stepBudget: null })?.kind).toBe("repetition");
    expect(detectHalt(steps(nothing, nothing, nothing), { repeatLimit: 4, stepBudget: null })).toBeNull();
    const family = createHouseholdEnvironment({ repeatLimit: 5 });
    expect(family.earlyStop?.(steps(nothing, nothing, nothing, nothing))).toBeNull();
    expect(family.earlyStop?.(steps(nothing, nothing, nothing, nothing, nothing))).not.toBeNull();
  });
});

describe("cycles and normalised comparison (decision 0014)", () => {
  const shelf: [string, string] = ["go to shelf 1", "On the shelf 1, you see a houseplant 1, a pencil 1, and a pencil 2."];
  const desk: [string, string] = ["go to desk 1", "On the desk 1, you see a desklamp 1, and a pen 1."];
  const drawer: [string, string] = ["open drawer 1", "Nothing happens."];

  it("A, B, A, B with the same observations halts at the fourth step, naming the cycle", () => {
    expect(householdEarlyStop(steps(shelf, desk, shelf))).toBeNull();
    expect(detectHalt(steps(shelf, desk, shelf, desk))).toEqual({
      kind: "cycle",
      message: 'The actions "go to shelf 1", "go to desk 1" were repeated in the same order with the same observations: a cycle of 2 steps, twice in a row.',
    });
  });

  it("A, B, C, A, B, C halts at the sixth step; a changed observation is no cycle", () => {
    expect(detectHalt(steps(shelf, desk, drawer, shelf, desk))).toBeNull();
    expect(detectHalt(steps(shelf, desk, drawer, shelf, desk, drawer))?.message).toMatch(/a cycle of 3 steps/);
    expect(detectHalt(steps(shelf, desk, shelf, ["go to desk 1", "On the desk 1, you see a desklamp 1."]))).toBeNull();
  });

  it("compares actions ignoring case, spacing, a leading >, an Action label, quotes and trailing punctuation", () => {
    const written = steps(["Use desklamp 1.", "Nothing happens."], ["> use  DESKLAMP 1!", "Nothing happens."], ['Action: "use desklamp 1"', "Nothing happens."]);
    expect(householdEarlyStop(written)).toBe('The same action "Use desklamp 1" gave the same observation "Nothing happens." 3 times in a row.');
  });

  it("cycles can be turned off or changed per family instance", () => {
    expect(createHouseholdEnvironment({ cyclePeriods: [] }).earlyStop?.(steps(shelf, desk, shelf, desk))).toBeNull();
    expect(createHouseholdEnvironment({ cyclePeriods: [3] }).earlyStop?.(steps(shelf, desk, shelf, desk))).toBeNull();
  });

  it("when a loop and the budget hold at the same step, the loop is the reason", () => {
    expect(detectHalt(steps(shelf, nothing, nothing, nothing), { repeatLimit: 3, stepBudget: 4 })?.kind).toBe("repetition");
    expect(detectHalt(steps(shelf, desk, shelf, desk), { stepBudget: 4 })?.kind).toBe("cycle");
  });

  it("the Evaluator's feedback names the same cycle as earlyStop, from the episode's own history", () => {
    const actions = ["go to shelf 1", "go to desk 1", "go to shelf 1.", "Go to desk 1"];
    const { episode, observations } = play(PUT_PENCIL_ON_DESK, actions);
    const reason = householdEarlyStop(steps(...actions.map((action, index): [string, string] => [action, observations[index] ?? ""])));
    expect(reason).toMatch(/cycle of 2 steps/);
    const verdict = evaluateHousehold(PUT_PENCIL_ON_DESK, null, episode);
    expect(verdict.feedback).toBe(`Task not completed: the goal (a pencil in/on a desk) was not reached. ${reason}`);
    expect(verdict.details.halt).toEqual({ kind: "cycle", message: reason });
  });
});

describe("the step budget", () => {
  const varied = Array.from({ length: 31 }, (_, index): [string, string] => [`think: idea ${index}`, "OK."]);

  it("is the family's default maxStepsPerTrial (30), enforced by the engine", () => {
    expect(householdEnvironment.defaultMaxStepsPerTrial).toBe(30);
    expect(householdEnvironment.earlyStop?.(steps(...varied))).toBeNull();
  });

  it("can also be enforced by the heuristics, with the reason recorded", () => {
    expect(detectHalt(steps(...varied.slice(0, 29)), { repeatLimit: 3, stepBudget: 30 })).toBeNull();
    expect(detectHalt(steps(...varied.slice(0, 30)), { repeatLimit: 3, stepBudget: 30 })).toEqual({
      kind: "step-budget",
      message: "The step budget of 30 actions ran out before the task was done.",
    });
    expect(createHouseholdEnvironment({ stepBudget: 10 }).earlyStop?.(steps(...varied.slice(0, 10)))).toContain("10 actions");
  });
});

describe("evaluateHousehold", () => {
  const task = PUT_PENCIL_ON_DESK;

  it("passes on the environment's success flag and records the goal", () => {
    const { episode } = play(task, ["go to shelf 1", "take pencil 1 from shelf 1", "go to desk 1", "put pencil 1 in/on desk 1"]);
    expect(evaluateHousehold(task, null, episode)).toEqual({
      verdict: "pass",
      score: 1,
      feedback: "Task completed in 4 actions: a pencil in/on a desk.",
      evaluatorKind: "environment-success",
      oracle: false,
      details: { won: true, steps: 4, goal: "a pencil in/on a desk", halt: null },
    });
  });

  it("fails with the repetition that stopped the trial in its feedback", () => {
    const { episode } = play(task, ["go to desk 1", "use desklamp 2", "use desklamp 2", "use desklamp 2"]);
    const verdict = evaluateHousehold(task, null, episode);
    expect(verdict).toMatchObject({ verdict: "fail", score: 0, details: { won: false, steps: 4, halt: { kind: "repetition" } } });
    expect(verdict.feedback).toBe(
      'Task not completed: the goal (a pencil in/on a desk) was not reached. The same action "use desklamp 2" gave the same observation "Nothing happens." 3 times in a row.',
    );
  });

  it("fails with the number of actions when nothing repeated, and ignores any answer", () => {
    const { episode } = play(task, ["go to desk 1", "look"]);
    const verdict = evaluateHousehold(task, "I am done", episode);
    expect(verdict.verdict).toBe("fail");
    expect(verdict.feedback).toContain("The trial ended after 2 actions.");
  });

  it("fails an episode of another family", () => {
    const foreign = { step: () => ({ observation: "", done: true, answer: "x" }) };
    expect(evaluateHousehold(task, "x", foreign).verdict).toBe("fail");
  });
});
