import type { CodeTestResult } from "@/lib/domain/code-trial";
import type { MemoryItem } from "@/lib/domain/events";
import { EventLog, makeRunConfig } from "./fixtures";

/** A built-in Python code task, as `run-start.config.task` carries it. */
export const CODE_TASK = {
  id: "code-py-01",
  language: "python",
  prompt: 'def running_max(xs: list[int]) -> list[int]:\n    """The maximum seen so far at each position."""\n',
  entryPoint: "running_max",
  hiddenTests: "def check(candidate):\n    assert candidate([]) == []\n    assert candidate([-3, -1, -2]) == [-3, -1, -1]\n\ncheck(running_max)",
  referenceSolution: null,
  setup: null,
  sourceFormat: "builtin",
} as const;

export const WRITTEN_TESTS = [
  "assert running_max([1, 3, 2]) == [1, 3, 3]",
  "assert running_max([5]) == [5]",
  "assert running_max([1, 2 == [1, 2]",
  "assert running_max([2, 1]) == [2, 2]",
].join("\n");

export const NAIVE = [
  "",
  "def running_max(xs):",
  "    best = 0",
  "    out = []",
  "    for x in xs:",
  "        best = max(best, x)",
  "        out.append(best)",
  "    return out",
  "",
].join("\n");

/** Right for negatives, wrong for `[]`: the internal tests (all non-empty) cannot tell. */
export const SECOND = ["def running_max(xs):", "    out = [xs[0]]", "    for x in xs[1:]:", "        out.append(max(out[-1], x))", "    return out"].join("\n");

function test(index: number, code: string, status: CodeTestResult["status"], actual: string | null = null, message = ""): CodeTestResult {
  return { name: `internal ${index}`, code, status, message, output: "", actual, durationMs: 3 + index };
}

const KEPT = ["assert running_max([1, 3, 2]) == [1, 3, 3]", "assert running_max([5]) == [5]", "assert running_max([2, 1]) == [2, 2]"];

export interface CodeRun {
  log: EventLog;
  ids: { writeTests: string; writeTestsObservation: string; implement1: string; implement1Observation: string; evaluation1: string; evaluation2: string; trial1Start: string; trial2Start: string };
}

/**
 * A two-trial code run (paper §4): trial 1 writes 3 of 4 tests (one does not
 * parse), implements, fails one internal test and the hidden tests; trial 2's
 * implementation passes every internal test but not the hidden tests — a false
 * positive.
 */
export function codeRun(): CodeRun {
  const log = new EventLog();
  log.add("run-start", { config: makeRunConfig({ environment: "code", taskId: CODE_TASK.id, task: { ...CODE_TASK }, maxStepsPerTrial: 2 }) });
  const trial1Start = log.add("trial-start", { trial: 1, memory: [], evicted: [] });

  const call1 = log.call("actor", 1, 1, "Write unit tests for running_max", WRITTEN_TESTS);
  log.add("step-thought", { trial: 1, step: 1, text: "", callId: call1 });
  const writeTests = log.add("step-action", { trial: 1, step: 1, text: WRITTEN_TESTS, action: { type: "WriteTests", argument: WRITTEN_TESTS }, parseError: null, callId: call1 });
  const writeTestsObservation = log.add("step-observation", {
    trial: 1,
    step: 1,
    text: "Kept 3 of 4 tests (1 dropped: does not parse).",
    done: false,
    answer: null,
    state: { kind: "code-tests-written", language: "python", kept: KEPT, dropped: [{ line: "assert running_max([1, 2 == [1, 2]", reason: "does not parse" }] },
  });

  const call2 = log.call("actor", 1, 2, "Implement running_max", NAIVE);
  log.add("step-thought", { trial: 1, step: 2, text: "", callId: call2 });
  const implement1 = log.add("step-action", { trial: 1, step: 2, text: NAIVE, action: { type: "Implement", argument: NAIVE }, parseError: null, callId: call2 });
  const feedback1 = "Tested passed:\nassert running_max([5]) == [5]\n\nTests failed:\nassert running_max([1, 3, 2]) == [1, 3, 3] # output: [1, 3, 3, 0]";
  const implement1Observation = log.add("step-observation", {
    trial: 1,
    step: 2,
    text: feedback1,
    done: true,
    answer: NAIVE,
    state: {
      kind: "code-internal-run",
      language: "python",
      implementation: NAIVE,
      verdict: "fail",
      tests: [test(1, KEPT[0] ?? "", "fail", "[1, 3, 3, 0]", "AssertionError"), test(2, KEPT[1] ?? "", "pass"), test(3, KEPT[2] ?? "", "timeout", "TIMEOUT", "timed out after 2000 ms")],
    },
  });
  const hiddenFail: CodeTestResult = { name: "hidden", code: CODE_TASK.hiddenTests, status: "fail", message: "AssertionError", output: "", actual: null, durationMs: 40 };
  const evaluation1 = log.add("evaluation-end", {
    trial: 1,
    verdict: "fail",
    score: 0,
    feedback: feedback1,
    evaluatorKind: "unit-tests",
    oracle: false,
    details: {},
    hiddenTests: { verdict: "fail", passed: 0, total: 1, tests: [hiddenFail], durationMs: 41 },
    falsePositive: false,
  });
  log.add("trial-end", { trial: 1, outcome: "failure", reason: "internal tests failed" });
  const reflectorCall = log.call("reflector", 1, null, "Reflect on the failed implementation", "Starting from 0 breaks negative inputs.");
  const reflection = log.add("reflection-end", { trial: 1, text: "Starting from 0 breaks negative inputs.", callId: reflectorCall });
  log.add("checkpoint", { trial: 1, digest: "d1" });

  const memory: MemoryItem[] = [{ id: reflection.id, text: "Starting from 0 breaks negative inputs.", trial: 1 }];
  const trial2Start = log.add("trial-start", { trial: 2, memory, evicted: [] });
  const call3 = log.call("actor", 2, 1, "Implement running_max again", SECOND);
  log.add("step-thought", { trial: 2, step: 1, text: "", callId: call3 });
  log.add("step-action", { trial: 2, step: 1, text: SECOND, action: { type: "Implement", argument: SECOND }, parseError: null, callId: call3 });
  const feedback2 = `Tested passed:\n${KEPT.join("\n")}\n\nTests failed:`;
  log.add("step-observation", {
    trial: 2,
    step: 1,
    text: feedback2,
    done: true,
    answer: SECOND,
    state: { kind: "code-internal-run", language: "python", implementation: SECOND, verdict: "pass", tests: KEPT.map((code, index) => test(index + 1, code, "pass")) },
  });
  const evaluation2 = log.add("evaluation-end", {
    trial: 2,
    verdict: "pass",
    score: 1,
    feedback: feedback2,
    evaluatorKind: "unit-tests",
    oracle: false,
    details: {},
    hiddenTests: {
      verdict: "fail",
      passed: 1,
      total: 2,
      tests: [
        { name: "hidden 1", code: "assert running_max([]) == []", status: "error", message: "IndexError: list index out of range", output: "", actual: "IndexError: list index out of range", durationMs: 2 },
        { name: "hidden 2", code: "assert running_max([-3, -1, -2]) == [-3, -1, -1]", status: "pass", message: "", output: "", actual: null, durationMs: 2 },
      ],
      durationMs: 38,
    },
    falsePositive: true,
  });
  log.add("trial-end", { trial: 2, outcome: "success", reason: "internal tests passed" });
  log.add("run-end", { outcome: "success", trials: 2 });
  return {
    log,
    ids: {
      writeTests: writeTests.id,
      writeTestsObservation: writeTestsObservation.id,
      implement1: implement1.id,
      implement1Observation: implement1Observation.id,
      evaluation1: evaluation1.id,
      evaluation2: evaluation2.id,
      trial1Start: trial1Start.id,
      trial2Start: trial2Start.id,
    },
  };
}
