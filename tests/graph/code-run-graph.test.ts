import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import {
  CODE_NODE_HEIGHTS,
  CODE_PREVIEW_LINES,
  codeTrialSummary,
  createRunGraphDeriver,
  deriveRunGraph,
  failureLine,
  falsePositiveCause,
  falsePositiveExplanation,
  NODE_HEIGHTS,
  passedVacuously,
  type GraphNodeOf,
  type RunGraph,
  type RunGraphNode,
} from "@/lib/graph";
import { codeRun } from "./code-fixtures";
import { twoTrialReflexionRun } from "./fixtures";

function laneKinds(graph: RunGraph, trial: number): string[] {
  return graph.nodes
    .filter((node) => node.type !== "lane" && node.data.trial === trial)
    .sort((a, b) => a.position.y - b.position.y)
    .map((node) => node.type);
}

function nodeOf<K extends RunGraphNode["type"]>(graph: RunGraph, id: string, kind: K): GraphNodeOf<K> {
  const node = graph.nodes.find((candidate) => candidate.id === id);
  if (!node || node.type !== kind) throw new Error(`no ${kind} node ${id}`);
  return node as GraphNodeOf<K>;
}

describe("deriveRunGraph on a code run", () => {
  const run = codeRun();
  const graph = deriveRunGraph(foldRun(run.log.events));

  it("leaves out the empty thoughts: each step is its code action and the test result", () => {
    expect(laneKinds(graph, 1)).toEqual(["trial", "action", "observation", "action", "observation", "evaluation", "reflection"]);
    expect(laneKinds(graph, 2)).toEqual(["trial", "action", "observation", "evaluation"]);
  });

  it("shows the verb and the first lines of the code on action nodes", () => {
    const writeTests = nodeOf(graph, run.ids.writeTests, "action");
    expect(writeTests.data.code).toEqual({
      actionType: "WriteTests",
      verb: "Write tests",
      language: "python",
      preview: ["assert running_max([1, 3, 2]) == [1, 3, 3]", "assert running_max([5]) == [5]", "assert running_max([1, 2 == [1, 2]", "assert running_max([2, 1]) == [2, 2]"],
      lines: 4,
    });
    const implement = nodeOf(graph, run.ids.implement1, "action");
    expect(implement.data.code?.verb).toBe("Implement");
    // Leading blank lines skipped, indentation kept, cut after a few lines — not one truncated line.
    expect(implement.data.code?.preview).toEqual(["def running_max(xs):", "    best = 0", "    out = []", "    for x in xs:"]);
    expect(implement.data.code?.preview).toHaveLength(CODE_PREVIEW_LINES);
    expect(implement.data.code?.lines).toBe(7);
    expect(implement.ariaLabel).toBe("Trial 1, step 2: Implement, 7 lines of python");
  });

  it("says how many tests were kept after WriteTests and how many passed after Implement", () => {
    const written = nodeOf(graph, run.ids.writeTestsObservation, "observation");
    expect(written.data.code).toEqual({ kind: "tests-written", language: "python", kept: 3, written: 4, firstDropReason: "does not parse" });
    expect(written.ariaLabel).toBe("Trial 1, step 1: kept 3 of 4 tests");

    const internal = nodeOf(graph, run.ids.implement1Observation, "observation");
    expect(internal.data.code).toEqual({
      kind: "internal-run",
      language: "python",
      verdict: "fail",
      passed: 1,
      total: 3,
      statuses: ["fail", "pass", "timeout"],
      firstFailure: "assert running_max([1, 3, 2]) == [1, 3, 3] # output: [1, 3, 3, 0]",
    });
    expect(internal.ariaLabel).toBe("Trial 1, step 2: internal tests 1 of 3 passed");
  });

  it("puts the internal and the hidden verdicts side by side and flags the false positive", () => {
    const first = nodeOf(graph, run.ids.evaluation1, "evaluation");
    expect(first.data.verdict).toBe("fail");
    expect(first.data.code).toEqual({ internal: "fail", internalPassed: 1, internalTotal: 3, hidden: { verdict: "fail", passed: 0, total: 1 }, falsePositive: false, vacuous: false, untested: false });

    const second = nodeOf(graph, run.ids.evaluation2, "evaluation");
    expect(second.data.code).toEqual({ internal: "pass", internalPassed: 3, internalTotal: 3, hidden: { verdict: "fail", passed: 1, total: 2 }, falsePositive: true, vacuous: false, untested: false });
    expect(second.ariaLabel).toBe("Trial 2 evaluation: internal tests pass, hidden tests fail (1 of 2), false positive");
  });

  it("says when a false positive passed an empty internal suite vacuously", () => {
    const vacuousRun = codeRun();
    for (const event of vacuousRun.log.events) {
      if (event.type === "evaluation-end" && event.data.trial === 2) event.data.details = { internalPassed: 0, internalTotal: 0, vacuous: true };
    }
    const vacuousGraph = deriveRunGraph(foldRun(vacuousRun.log.events));
    const evaluation = nodeOf(vacuousGraph, vacuousRun.ids.evaluation2, "evaluation");
    expect(evaluation.data.code?.vacuous).toBe(true);
    expect(evaluation.ariaLabel).toContain("passed vacuously");
    expect(nodeOf(vacuousGraph, vacuousRun.ids.trial2Start, "trial").data.code?.vacuous).toBe(true);
    expect(falsePositiveExplanation(true)).toMatch(/^No internal tests were kept, so the empty suite passed vacuously; the hidden tests failed/);
    expect(falsePositiveCause(true)).not.toMatch(/weak internal tests/i);
    // Not vacuous: the usual explanation and cause.
    expect(falsePositiveExplanation(false)).toMatch(/own tests passed/);
    expect(falsePositiveCause(false)).toMatch(/Weak internal tests are the usual cause/);
  });

  it("reads an internal pass over zero tests as vacuous when the log has no details.vacuous", () => {
    const older = codeRun();
    const trial2 = foldRun(older.log.events).trials[1];
    if (!trial2?.evaluation) throw new Error("no trial 2 evaluation");
    expect(passedVacuously(trial2, trial2.evaluation)).toBe(false);
    const observation = trial2.steps[0]?.observation;
    if (!observation) throw new Error("no observation");
    observation.state = { ...observation.state, tests: [] };
    expect(passedVacuously(trial2, trial2.evaluation)).toBe(true);
    expect(passedVacuously(trial2, { ...trial2.evaluation, details: { vacuous: false } })).toBe(false);
  });

  it("summarises both verdicts on the lane headers", () => {
    const trial1 = nodeOf(graph, run.ids.trial1Start, "trial");
    const trial2 = nodeOf(graph, run.ids.trial2Start, "trial");
    expect(trial1.data.code).toEqual({ internal: "fail", hidden: { verdict: "fail", passed: 0, total: 1 }, falsePositive: false, vacuous: false, untested: false });
    expect(codeTrialSummary(trial2.data.code ?? { internal: null, hidden: null, falsePositive: false, vacuous: false, untested: false })).toBe("internal ✓ · hidden ✗ 1/2 · false positive");
    expect(trial2.ariaLabel).toContain("internal ✓ · hidden ✗ 1/2 · false positive");
  });

  it("says a trial awaits its verdict until it is evaluated", () => {
    const events = run.log.events.filter((event) => event.type !== "evaluation-end");
    const header = deriveRunGraph(foldRun(events)).nodes.find((node) => node.id === run.ids.trial1Start);
    expect(header?.type === "trial" && header.data.code).toEqual({ internal: null, hidden: null, falsePositive: false, vacuous: false, untested: false });
    expect(codeTrialSummary({ internal: null, hidden: null, falsePositive: false, vacuous: false, untested: false })).toBe("awaiting verdict");
  });

  it("draws code nodes taller, with heights fixed per node so a verdict never moves the layout", () => {
    const heights = (kind: RunGraphNode["type"]) => [...new Set(graph.nodes.filter((node) => node.type === kind).map((node) => node.height))];
    expect(heights("trial")).toEqual([CODE_NODE_HEIGHTS.trial]);
    expect(heights("action")).toEqual([CODE_NODE_HEIGHTS.action]);
    expect(heights("evaluation")).toEqual([CODE_NODE_HEIGHTS.evaluation]);
    expect(heights("reflection")).toEqual([NODE_HEIGHTS.reflection]);

    const derive = createRunGraphDeriver();
    const cut = run.log.events.findIndex((event) => event.id === run.ids.evaluation1);
    const before = derive(foldRun(run.log.events.slice(0, cut)));
    const after = derive(foldRun(run.log.events.slice(0, cut + 1)));
    for (const node of before.nodes.filter((candidate) => candidate.data.trial === 1 && candidate.type !== "lane")) {
      expect(after.nodes.find((candidate) => candidate.id === node.id)?.position).toEqual(node.position);
    }
  });

  it("keeps unchanged code nodes as the same objects across derivations", () => {
    const derive = createRunGraphDeriver();
    const cut = run.log.events.findIndex((event) => event.id === run.ids.evaluation1);
    const before = derive(foldRun(run.log.events.slice(0, cut)));
    const after = derive(foldRun(run.log.events));
    for (const id of [run.ids.writeTests, run.ids.writeTestsObservation, run.ids.implement1, run.ids.implement1Observation]) {
      expect(after.nodes.find((node) => node.id === id)).toBe(before.nodes.find((node) => node.id === id));
    }
  });

  it("formats a failing test the way the feedback does", () => {
    expect(failureLine({ code: "assert f(1) == 2", actual: "3", message: "AssertionError", status: "fail" }, "python")).toBe("assert f(1) == 2 # output: 3");
    expect(failureLine({ code: "assert.deepStrictEqual(f(1), 2);", actual: "TIMEOUT", message: "", status: "timeout" }, "javascript")).toBe(
      "assert.deepStrictEqual(f(1), 2); // output: TIMEOUT",
    );
    expect(failureLine({ code: "assert ok()", actual: null, message: "NameError: ok", status: "error" }, "python")).toBe("assert ok() — NameError: ok");
  });
});

describe("deriveRunGraph on a QA run (unchanged by the code family)", () => {
  const run = twoTrialReflexionRun();
  const graph = deriveRunGraph(foldRun(run.log.events));

  it("adds no code views, keeps every thought and the kinds' fixed heights", () => {
    for (const node of graph.nodes) expect(Object.keys(node.data)).not.toContain("code");
    expect(laneKinds(graph, 1)).toEqual(["trial", "thought", "action", "observation", "thought", "action", "observation", "evaluation", "reflection"]);
    for (const node of graph.nodes) if (node.type !== "lane") expect(node.height).toBe(NODE_HEIGHTS[node.type]);
  });

  it("keeps the node data shapes", () => {
    const keysOf = (kind: RunGraphNode["type"]) => Object.keys(graph.nodes.find((node) => node.type === kind)?.data ?? {}).sort();
    expect(keysOf("action")).toEqual(["actionType", "argument", "callId", "callSource", "display", "eventId", "ignored", "invalid", "parseError", "recordedByAuthors", "step", "text", "trial", "truncated"]);
    expect(keysOf("observation")).toEqual(["answer", "done", "eventId", "inventory", "location", "noEffect", "repeats", "step", "text", "trial"]);
    expect(keysOf("evaluation")).toEqual(["evaluatorKind", "eventId", "feedback", "oracle", "score", "trial", "verdict"]);
    expect(keysOf("trial")).toEqual(["endReason", "eventId", "memoryEvicted", "memoryInContext", "memoryMissing", "outcome", "steps", "trial"]);
  });
});
