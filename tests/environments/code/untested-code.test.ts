import { afterAll, describe, expect, it } from "vitest";
import { MAX_INTERNAL_TEST_ASKS, readCodeStepState } from "@/lib/domain/code-trial";
import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun, type EngineDeps } from "@/lib/engine/run-engine";
import { createCodeEnvironment, type CodeTask } from "@/lib/environments/code";
import { createModelPort } from "@/lib/llm/model-port";
import { createSandboxPool } from "@/lib/sandbox";
import { queuedMockModel } from "../../helpers/mock-model";

/**
 * The code loop when the model's tests are unusable. Trial 1
 * asks for the internal tests again (bounded) when a block holds no runnable
 * test, says so on the trial when none ever comes, and never passes an
 * implementation vacuously; an implementation that does not parse never passes.
 * Real engine (driveRun), real sandbox, AI SDK mock models as the Actor.
 */

const pool = createSandboxPool({ size: 1 });
afterAll(() => pool.close());
const family = createCodeEnvironment({ sandbox: pool });

const task: CodeTask = {
  id: "untested-py",
  language: "python",
  prompt: 'def double(x: int) -> int:\n    """Twice x."""\n',
  entryPoint: "double",
  hiddenTests: "def check(candidate):\n    assert candidate(2) == 4\n\ncheck(double)\n",
  referenceSolution: null,
  setup: null,
  sourceFormat: "builtin",
};
const RIGHT = "```python\ndef double(x: int) -> int:\n    return 2 * x\n```";
const PROSE = "I would test it with a few numbers, such as 2 and 3, and check the doubled values.";
const BROKEN_TESTS = "```python\nassert double(2 == 4\nassert (double(3) == 6\n```";
const REFLECTION = "Write tests that parse.";

function config(overrides: Partial<RunConfig> = {}): RunConfig {
  return runConfigSchema.parse({
    environment: "code",
    taskSetName: "test",
    taskId: task.id,
    task,
    strategy: "reflexion",
    memoryWindow: 1,
    maxTrials: 2,
    maxStepsPerTrial: family.fixedStepsPerTrial,
    models: { actor: { modelId: "demo", maxOutputTokens: 1024 }, reflector: { modelId: "demo", maxOutputTokens: 1024 } },
    templates: family.defaultTemplates,
    ...overrides,
  });
}

/** Drives a run to its end; `replies[k]` answers the run's k-th model call (Actor or Self-Reflection). */
async function run(replies: string[]) {
  const store = new MemoryRunStore();
  const model = queuedMockModel(replies);
  const deps: EngineDeps = { log: store, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }), environmentFor: () => family };
  const created = await store.createRun({ config: config(), title: "untested" });
  const result = await driveRun(deps, { runId: created.id, branchId: created.rootBranchId });
  expect(result.stoppedBecause).toBe("ended");
  expect(model.doStreamCalls).toHaveLength(replies.length);
  return store.list(created.id, created.rootBranchId);
}

const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);
const actorPrompts = (events: RunEvent[], trial: number) =>
  ofType(events, "model-call-end")
    .filter((e) => e.data.role === "actor" && e.data.trial === trial)
    .map((e) => e.data.messages.map((m) => m.content).join("\n"));

describe("code loop: unusable internal tests", () => {
  it("asks for the tests again when a block holds no runnable test, and the next ask says why", async () => {
    const events = await run([PROSE, "```python\nassert double(2) == 4\nassert double(-1) == -2\n```", RIGHT]);
    const state = foldRun(events);
    expect(state.outcome).toBe("success");
    const steps = state.trials[0]!.steps;
    // Prose holds no code block: the first ask is an unparsed action, still a tests step.
    expect(steps.map((s) => s.action?.action?.type ?? "unparsed")).toEqual(["unparsed", "WriteTests", "Implement"]);
    expect(steps[0]!.observation!.text).toContain(`ask 1 of ${MAX_INTERNAL_TEST_ASKS}`);
    expect(readCodeStepState(steps[1]!.observation!.state)).toMatchObject({ kind: "code-tests-written", kept: ["assert double(2) == 4", "assert double(-1) == -2"] });
    // What reached the second ask: why the first block could not be used.
    const prompts = actorPrompts(events, 1);
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).not.toContain("could not be used");
    expect(prompts[1]).toContain("[previous unit tests could not be used]:");
    expect(prompts[1]).toContain("No runnable internal test in this block");
    // The implementation was checked by the kept tests, not vacuously.
    const evaluation = ofType(events, "evaluation-end")[0]!.data;
    expect(evaluation).toMatchObject({ verdict: "pass", details: { internalPassed: 2, internalTotal: 2, vacuous: false, untested: false } });
  });

  it("after the bounded asks, says so on the trial and never passes the untested implementation", async () => {
    // Trial 1: three asks for tests, then the program; its reflection; trial 2 implements only.
    const events = await run([PROSE, BROKEN_TESTS, "```python\n\n```", RIGHT, REFLECTION, RIGHT]);
    const state = foldRun(events);
    const trial1 = state.trials[0]!;
    expect(trial1.steps.map((s) => s.action?.action?.type ?? "unparsed")).toEqual(["unparsed", "WriteTests", "unparsed", "Implement"]);
    expect(trial1.steps[2]!.observation!.text).toContain(`No runnable internal test after ${MAX_INTERNAL_TEST_ASKS} asks`);
    // A correct program, but no internal test checked it: a failed (untested) trial, not a vacuous pass.
    const evaluations = ofType(events, "evaluation-end").map((e) => e.data);
    expect(evaluations[0]).toMatchObject({ verdict: "fail", score: 0, details: { untested: true, vacuous: false } });
    expect(evaluations[0]!.feedback).toContain("No runnable internal test was written");
    expect(evaluations[0]!.hiddenTests?.verdict).toBe("pass");
    expect(evaluations[0]!.falsePositive).toBe(false);
    expect(trial1.outcome).toBe("failure");
    // Later trials implement only (tests are asked for in trial 1), and stay untested.
    expect(state.trials[1]!.steps.map((s) => s.action?.action?.type)).toEqual(["Implement"]);
    expect(evaluations[1]).toMatchObject({ verdict: "fail", details: { untested: true } });
    // The run's outcome is pass@1 on the hidden tests (reported, never shown to the agent): this program is right.
    expect(state.outcome).toBe("success");
  });

  it("an implementation that does not parse never passes, even tests that assert nothing of it", async () => {
    const unparsable = "```python\ndef double(x: int) -> int\n    return 2 * x\n```";
    const events = await run(["```python\nassert True\nassert 1 + 1 == 2\n```", unparsable, REFLECTION, unparsable]);
    const evaluations = ofType(events, "evaluation-end").map((e) => e.data);
    expect(evaluations.length).toBeGreaterThan(0);
    for (const evaluation of evaluations) {
      expect(evaluation.verdict).toBe("fail");
      expect(evaluation.details).toMatchObject({ internalTotal: 2 });
      expect(evaluation.details.internalPassed).toBe(0);
    }
    expect(foldRun(events).outcome).toBe("failure");
  });
});
