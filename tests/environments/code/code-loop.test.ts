import { afterAll, describe, expect, it } from "vitest";
import { runConfigSchema, type RunConfig, type Strategy } from "@/lib/domain/config";
import { readCodeStepState } from "@/lib/domain/code-trial";
import type { RunEvent, RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun, type EngineDeps } from "@/lib/engine/run-engine";
import { createCodeEnvironment, type CodeTask } from "@/lib/environments/code";
import { createModelPort } from "@/lib/llm/model-port";
import { createSandboxPool } from "@/lib/sandbox";
import { queuedMockModel } from "../../helpers/mock-model";

/**
 * The programming Reflexion loop end to end (paper §4; reference §4.1): AI SDK
 * mock models play the Actor and the Self-Reflection, code runs in the real
 * sandbox. Hidden tests carry a marker value that must never reach a prompt.
 */

const pool = createSandboxPool({ size: 1 });
afterAll(() => pool.close());
const family = createCodeEnvironment({ sandbox: pool });

const HIDDEN_MARKER = "98765";
const pyTask: CodeTask = {
  id: "loop-py",
  language: "python",
  prompt: 'def safe_max(values: list) -> int:\n    """Largest value, or 0 for an empty list."""\n',
  entryPoint: "safe_max",
  hiddenTests: `def check(candidate):\n    assert candidate([1, 5, 2]) == 5\n    assert candidate([]) == 0\n    assert candidate([-${HIDDEN_MARKER}, -2]) == -2\n\ncheck(safe_max)\n`,
  referenceSolution: null,
  setup: null,
  sourceFormat: "builtin",
};
const tsTask: CodeTask = {
  id: "loop-ts",
  language: "typescript",
  prompt: "/** Sum of the even numbers. */\nfunction sumEven(values: number[]): number",
  entryPoint: "sumEven",
  hiddenTests: `const assert = require("node:assert");\nassert.deepStrictEqual(sumEven([1, 2, 3, 4]), 6);\nassert.deepStrictEqual(sumEven([-2, ${HIDDEN_MARKER}]), -2);\n`,
  referenceSolution: null,
  setup: null,
  sourceFormat: "builtin",
};

const REFLECTION = "REFLECTION-7: max() raises on an empty list; return 0 first when the list is empty.";
const WRONG_PY = "def safe_max(values: list) -> int:\n    return max(values)";
const RIGHT_PY = "def safe_max(values: list) -> int:\n    if not values:\n        return 0\n    return max(values)";

/** The Actor's WriteTests answer for the Python task. */
const pyTests = (tests: string) => `Here are tests.\n\`\`\`python\n${tests}\n\`\`\``;
/** The Actor's Implement answer for the Python task. */
const pyProgram = (program: string) => `\`\`\`python\n${program}\n\`\`\``;

function config(task: CodeTask, strategy: Strategy = "reflexion", overrides: Partial<RunConfig> = {}): RunConfig {
  return runConfigSchema.parse({
    environment: "code",
    taskSetName: "test",
    taskId: task.id,
    task,
    strategy,
    memoryWindow: 1,
    maxTrials: 3,
    maxStepsPerTrial: 2,
    models: { actor: { modelId: "demo", maxOutputTokens: 1024 }, reflector: { modelId: "demo", maxOutputTokens: 1024 } },
    templates: family.defaultTemplates,
    ...overrides,
  });
}

/** Drives a run to its end; `replies[k]` answers the run's k-th model call, and every reply must be used. */
async function run(cfg: RunConfig, replies: string[]): Promise<RunEvent[]> {
  const store = new MemoryRunStore();
  const model = queuedMockModel(replies);
  const deps: EngineDeps = { log: store, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }), environmentFor: () => family };
  const created = await store.createRun({ config: cfg, title: "code" });
  const result = await driveRun(deps, { runId: created.id, branchId: created.rootBranchId });
  expect(result.stoppedBecause).toBe("ended");
  expect(model.doStreamCalls).toHaveLength(replies.length);
  return store.list(created.id, created.rootBranchId);
}

const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is RunEventOf<T> => e.type === type);
const prompts = (events: RunEvent[]) => ofType(events, "model-call-end").map((e) => ({ role: e.data.role, trial: e.data.trial, text: e.data.messages.map((m) => m.content).join("\n") }));

describe("code family: the programming Reflexion loop", () => {
  it("reflexion: a missed edge case fails the internal tests, the reflection reaches trial 2, trial 2 passes both test suites", async () => {
    const tests = "assert safe_max([3, 1]) == 3\nassert safe_max([]) == 0\nassert safe_max([1, (2) == 1\nprint('not a test')";
    // Trial 1 writes tests and the program that misses the empty list; the reflection; trial 2 implements only.
    const events = await run(config(pyTask), [pyTests(tests), pyProgram(WRONG_PY), REFLECTION, pyProgram(RIGHT_PY)]);
    const state = foldRun(events);
    expect(state.outcome).toBe("success");
    expect(state.trials.map((t) => t.outcome)).toEqual(["failure", "success"]);

    // Trial 1: WriteTests kept the two parsing asserts and dropped the broken one.
    const written = readCodeStepState(state.trials[0]!.steps[0]!.observation!.state);
    expect(written).toMatchObject({ kind: "code-tests-written", kept: ["assert safe_max([3, 1]) == 3", "assert safe_max([]) == 0"] });
    expect(written?.kind === "code-tests-written" && written.dropped.map((d) => d.line)).toEqual(["assert safe_max([1, (2) == 1"]);

    // Internal feedback in the reference's format, with the value the failing call produced.
    const trial1Feedback = state.trials[0]!.steps[1]!.observation!.text;
    expect(trial1Feedback).toMatch(/^Tested passed:\nassert safe_max\(\[3, 1\]\) == 3\n\nTests failed:\nassert safe_max\(\[\]\) == 0 # output: ValueError/);

    // Both verdicts on every evaluation-end.
    const evaluations = ofType(events, "evaluation-end");
    expect(evaluations.map((e) => [e.data.verdict, e.data.hiddenTests?.verdict, e.data.falsePositive])).toEqual([
      ["fail", "fail", false],
      ["pass", "pass", false],
    ]);
    expect(evaluations[0]!.data).toMatchObject({ evaluatorKind: "unit-tests", oracle: false });
    expect(evaluations[1]!.data.hiddenTests).toMatchObject({ passed: 3, total: 3 });

    // The Self-Reflection saw the implementation and the failing test; the next Actor prompt has the reflection,
    // the previous implementation and its results.
    const all = prompts(events);
    const reflector = all.find((p) => p.role === "reflector")!;
    expect(reflector.text).toContain("return max(values)");
    expect(reflector.text).toContain("assert safe_max([]) == 0 # output:");
    const trial2Actor = all.filter((p) => p.role === "actor" && p.trial === 2);
    expect(trial2Actor).toHaveLength(1);
    expect(trial2Actor[0]!.text).toContain(`[reflection on previous impl]:\n${REFLECTION}`);
    expect(trial2Actor[0]!.text).toContain("[previous impl]:\n```python\ndef safe_max(values: list) -> int:\n    return max(values)\n```");
    expect(trial2Actor[0]!.text).toContain("[unit test results from previous impl]:\nTested passed:");

    // Hidden tests never reach any prompt.
    for (const prompt of all) {
      expect(prompt.text).not.toContain(HIDDEN_MARKER);
      expect(prompt.text).not.toContain("def check(candidate)");
    }
  });

  it("weak internal tests pass a wrong program: the trial ends on a false positive and the run counts as failed", async () => {
    const events = await run(config(pyTask), [pyTests("assert safe_max([3, 1]) == 3\nassert safe_max([2]) == 2"), pyProgram(WRONG_PY)]);
    const state = foldRun(events);
    expect(state.trials).toHaveLength(1);
    expect(state.trials[0]!.outcome).toBe("success");
    expect(state.outcome).toBe("failure");
    const evaluation = ofType(events, "evaluation-end")[0]!.data;
    expect(evaluation.verdict).toBe("pass");
    expect(evaluation.hiddenTests?.verdict).toBe("fail");
    expect(evaluation.hiddenTests?.tests.filter((t) => t.status !== "pass").length).toBeGreaterThan(0);
    expect(evaluation.falsePositive).toBe(true);
    expect(ofType(events, "reflection-end")).toHaveLength(0);
  });

  it("none (the paper's simple baseline): no reflection and no previous implementation; every trial starts from the signature", async () => {
    const events = await run(config(pyTask, "none", { maxTrials: 2 }), [pyTests("assert safe_max([]) == 0"), pyProgram(WRONG_PY), pyProgram(WRONG_PY)]);
    const all = prompts(events);
    expect(all.filter((p) => p.role === "reflector")).toHaveLength(0);
    const trial2 = all.find((p) => p.role === "actor" && p.trial === 2)!;
    expect(trial2.text).not.toContain("[previous impl]:");
    expect(trial2.text).toContain("[func signature]:\ndef safe_max");
    expect(trial2.text.trimEnd().endsWith("[implementation]:")).toBe(true);
    expect(foldRun(events).outcome).toBe("failure");
  });

  it("TypeScript: tests and the implementation run in QuickJS after transpiling; a completion without code is a failed trial, not a crash", async () => {
    const events = await run(config(tsTask), [
      "```typescript\nassert.deepStrictEqual(sumEven([2, 3]), 2);\nassert.deepStrictEqual(sumEven([]), 0);\n```",
      "I am not sure how to do this.",
      "I wrote no code. I must answer with a code block that filters even numbers.",
      "```ts\nfunction sumEven(values: number[]): number {\n  return values.filter((v) => v % 2 === 0).reduce((a, b) => a + b, 0);\n}\n```",
    ]);
    const state = foldRun(events);
    expect(state.trials[0]!.steps[1]!.action?.parseError).toMatch(/no code/);
    expect(state.trials[0]!.outcome).toBe("failure");
    expect(state.trials[1]!.outcome).toBe("success");
    expect(state.outcome).toBe("success");
    expect(ofType(events, "evaluation-end")[1]!.data.hiddenTests).toMatchObject({ verdict: "pass", passed: 2, total: 2 });
    for (const prompt of prompts(events)) expect(prompt.text).not.toContain(HIDDEN_MARKER);
  });
});

describe("code family: a person writes the Actor's tests and program (action-edit)", () => {
  it("a fenced program pasted by a person runs in the sandbox like the model's, with no model call for that step", async () => {
    const { draft } = await import("@/lib/domain/events");
    const store = new MemoryRunStore();
    const model = queuedMockModel([pyTests("assert safe_max([3, 1]) == 3")]);
    const deps: EngineDeps = { log: store, model: createModelPort({ resolveModel: () => model, maxRetries: 0 }), environmentFor: () => family };
    const cfg = config(pyTask, "reflexion", { breakpoints: { afterReflection: false, afterObservation: true, afterEvaluation: false, beforeModelCall: { actor: false, reflector: false } } });
    const created = await store.createRun({ config: cfg, title: "code" });
    const drive = () => driveRun(deps, { runId: created.id, branchId: created.rootBranchId });
    expect((await drive()).stoppedBecause).toBe("paused"); // after WriteTests' observation
    await store.append(created.id, created.rootBranchId, [
      draft("action-edit", { trial: 1, step: 2, text: `\`\`\`python\n${RIGHT_PY}\n\`\`\``, note: null }),
      draft("run-resume", { reason: "user" }),
    ]);
    expect((await drive()).stoppedBecause).toBe("paused"); // after the Implement observation
    await store.append(created.id, created.rootBranchId, [draft("run-resume", { reason: "user" })]);
    expect((await drive()).stoppedBecause).toBe("ended");
    const state = foldRun(await store.list(created.id, created.rootBranchId));
    const implement = state.trials[0]!.steps[1]!;
    expect(implement.action).toMatchObject({ callId: null, action: { type: "Implement", argument: RIGHT_PY } });
    expect(state.trials[0]!.evaluation).toMatchObject({ verdict: "pass", hiddenTests: { verdict: "pass" } });
    expect(state.totals.modelCalls).toBe(1); // only the WriteTests call
    expect(state.outcome).toBe("success");
  });
});

describe("code family: per-task time limit", () => {
  it("a task's timeoutMs stops a runaway implementation; the feedback shows TIMEOUT", async () => {
    const { runInternalTests, formatFeedback } = await import("@/lib/environments/code/test-runs");
    const task: CodeTask = { ...tsTask, timeoutMs: 400 };
    const results = await runInternalTests(task, "function sumEven(values: number[]): number { for (;;) {} }", ["assert.deepStrictEqual(sumEven([2]), 2);"], pool);
    expect(results[0]).toMatchObject({ status: "timeout", actual: "TIMEOUT" });
    // The sandbox stopped it at the task's 0.4 s, not at the 3 s default.
    expect(results[0]!.durationMs).toBeLessThan(2_500);
    expect(formatFeedback(results, "typescript")).toContain("// output: TIMEOUT");
  });
});

describe("code family: HumanEval prompts that define helpers", () => {
  it("HumanEval/10: an implementation that calls the prompt's is_palindrome without restating it passes, as under the official harness", async () => {
    const path = await import("node:path");
    const { readCodeTaskFile, createCodeEnvironment: make } = await import("@/lib/environments/code");
    const { runHiddenTests, runInternalTests, candidateProgram } = await import("@/lib/environments/code/test-runs");
    const file = path.resolve(__dirname, "../../../../shared/data/humaneval/HumanEval.jsonl.gz");
    const task = readCodeTaskFile(file).tasks.find((t) => t.id === "HumanEval/10")!;
    const implementation = [
      "def make_palindrome(string: str) -> str:",
      "    if not string:",
      "        return ''",
      "    beginning_of_suffix = 0",
      "    while not is_palindrome(string[beginning_of_suffix:]):",
      "        beginning_of_suffix += 1",
      "    return string + string[:beginning_of_suffix][::-1]",
    ].join("\n");
    expect(candidateProgram(task, implementation).startsWith(task.prompt.trimEnd())).toBe(true);
    expect((await runHiddenTests(task, implementation, pool)).verdict).toBe("pass");
    const internal = await runInternalTests(task, implementation, ["assert make_palindrome('cat') == 'catac'"], pool);
    expect(internal[0]!.status).toBe("pass");
    // The task's title names the entry point's own signature, not the helper's.
    expect(make({ sandbox: pool }).summarize(task).title).toMatch(/^make_palindrome \(python\): def make_palindrome\(/);
  });

  it("the hidden-test report shows what the program returned on failing cases (reporting only)", async () => {
    const { runHiddenTests } = await import("@/lib/environments/code/test-runs");
    const report = await runHiddenTests(pyTask, WRONG_PY, pool);
    const empty = report.tests.find((t) => t.code.includes("candidate([])"))!;
    expect(empty.status).toBe("error");
    expect(empty.actual).toMatch(/ValueError/);
  });
});
