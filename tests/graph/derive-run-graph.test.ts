import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import {
  createRunGraphDeriver,
  deriveRunGraph,
  laneNodeId,
  LANE_GAP,
  LANE_PADDING,
  NODE_WIDTH,
  type RunGraph,
  type RunGraphNode,
} from "@/lib/graph";
import { twoTrialReflexionRun } from "./fixtures";

/** Node kinds of one lane, top to bottom (lane background excluded). */
function laneKinds(graph: RunGraph, trial: number): string[] {
  return graph.nodes
    .filter((node) => node.type !== "lane" && node.data.trial === trial)
    .sort((a, b) => a.position.y - b.position.y)
    .map((node) => node.type);
}

function nodeById(graph: RunGraph, id: string): RunGraphNode {
  const node = graph.nodes.find((candidate) => candidate.id === id);
  if (!node) throw new Error(`no node ${id}`);
  return node;
}

describe("deriveRunGraph", () => {
  const run = twoTrialReflexionRun();
  const graph = deriveRunGraph(foldRun(run.log.events));

  it("draws one lane per trial with its steps, evaluation and reflection in order", () => {
    expect(laneKinds(graph, 1)).toEqual([
      "trial",
      "thought",
      "action",
      "observation",
      "thought",
      "action",
      "observation",
      "evaluation",
      "reflection",
    ]);
    expect(laneKinds(graph, 2)).toEqual(["trial", "thought", "action", "observation", "evaluation"]);
    expect(graph.nodes.filter((node) => node.type === "lane")).toHaveLength(2);
  });

  it("uses event ids as node ids", () => {
    const header = nodeById(graph, run.trial1StartId);
    expect(header.type).toBe("trial");
    expect(nodeById(graph, run.reflectionId).type).toBe("reflection");
    expect(nodeById(graph, laneNodeId(run.trial2StartId)).type).toBe("lane");
    // every node id is unique
    expect(new Set(graph.nodes.map((node) => node.id)).size).toBe(graph.nodes.length);
  });

  it("shows the memory in context on each trial header", () => {
    const trial1 = nodeById(graph, run.trial1StartId);
    const trial2 = nodeById(graph, run.trial2StartId);
    expect(trial1.type === "trial" && trial1.data.memoryInContext).toBe(0);
    expect(trial2.type === "trial" && trial2.data.memoryInContext).toBe(1);
    expect(trial2.type === "trial" && trial2.data.outcome).toBe("success");
  });

  it("links trial 1's reflection to trial 2's header with a memory edge", () => {
    const memoryEdges = graph.edges.filter((edge) => edge.data.kind === "memory");
    expect(memoryEdges).toHaveLength(1);
    expect(memoryEdges[0]).toMatchObject({
      source: run.reflectionId,
      target: run.trial2StartId,
      label: "memory",
      data: { kind: "memory", inContext: true },
    });
    const reflection = nodeById(graph, run.reflectionId);
    expect(reflection.type === "reflection" && reflection.data.inNextContext).toBe(true);
  });

  it("chains each lane with flow edges and never links lanes except through memory", () => {
    const flow = graph.edges.filter((edge) => edge.data.kind === "flow");
    // lane 1: 9 nodes → 8 edges; lane 2: 5 nodes → 4 edges
    expect(flow).toHaveLength(12);
    const trialOf = (id: string) => nodeById(graph, id).data.trial;
    for (const edge of flow) expect(trialOf(edge.source)).toBe(trialOf(edge.target));
    expect(new Set(graph.edges.map((edge) => edge.id)).size).toBe(graph.edges.length);
  });

  it("flags invalid actions and keeps the parse error", () => {
    const actions = graph.nodes.filter((node) => node.type === "action");
    const invalid = actions.filter((node) => node.type === "action" && node.data.invalid);
    expect(invalid).toHaveLength(1);
    const [bad] = invalid;
    expect(bad?.type === "action" && bad.data.parseError).toMatch(/Unknown action/);
    expect(bad?.type === "action" && bad.data.actionType).toBeNull();
    const valid = actions.filter((node) => node.type === "action" && !node.data.invalid);
    expect(valid.map((node) => (node.type === "action" ? node.data.actionType : null))).toEqual(["Search", "Finish"]);
  });

  it("marks verdicts and the oracle flag on evaluation nodes", () => {
    const evaluations = graph.nodes.filter((node) => node.type === "evaluation");
    expect(evaluations.map((node) => (node.type === "evaluation" ? [node.data.trial, node.data.verdict, node.data.oracle] : null))).toEqual([
      [1, "fail", true],
      [2, "pass", true],
    ]);
  });

  it("places lanes side by side in trial order and stacks a lane's nodes top to bottom", () => {
    const lane1 = nodeById(graph, laneNodeId(run.trial1StartId));
    const lane2 = nodeById(graph, laneNodeId(run.trial2StartId));
    expect(lane2.position.x - lane1.position.x).toBe(NODE_WIDTH + 2 * LANE_PADDING + LANE_GAP);
    expect(lane1.zIndex).toBe(-1);
    const lane1Nodes = graph.nodes.filter((node) => node.type !== "lane" && node.data.trial === 1);
    for (const node of lane1Nodes) {
      expect(node.position.x).toBe(lane1.position.x + LANE_PADDING);
      expect(node.position.y).toBeGreaterThanOrEqual(lane1.position.y);
      expect(node.position.y + node.height).toBeLessThanOrEqual(lane1.position.y + lane1.height);
    }
    const sorted = [...lane1Nodes].sort((a, b) => a.position.y - b.position.y);
    for (let i = 1; i < sorted.length; i += 1) {
      const above = sorted[i - 1];
      const below = sorted[i];
      if (above && below) expect(below.position.y).toBeGreaterThanOrEqual(above.position.y + above.height);
    }
    // Step 1 of both trials sits on the same row.
    const firstThought = (trial: number) => graph.nodes.find((node) => node.type === "thought" && node.data.trial === trial);
    expect(firstThought(1)?.position.y).toBe(firstThought(2)?.position.y);
  });

  it("draws a call error as its own node", () => {
    const run2 = twoTrialReflexionRun();
    run2.log.add("model-call-error", {
      callId: "call-x",
      role: "actor",
      trial: 2,
      step: 2,
      modelId: "openai:gpt-4o-mini",
      code: "rate-limited",
      message: "429 Too Many Requests",
      retryable: true,
      attempts: 3,
    });
    const withError = deriveRunGraph(foldRun(run2.log.events));
    const errors = withError.nodes.filter((node) => node.type === "call-error");
    expect(errors).toHaveLength(1);
    expect(laneKinds(withError, 2)).toEqual(["trial", "thought", "action", "observation", "call-error", "evaluation"]);
  });
});

describe("createRunGraphDeriver (structural sharing)", () => {
  it("keeps ids and object identity of unchanged nodes as events arrive", () => {
    const run = twoTrialReflexionRun();
    const derive = createRunGraphDeriver();
    const early = derive(foldRun(run.log.events.slice(0, run.marks.afterTrial1Steps)));
    const later = derive(foldRun(run.log.events.slice(0, run.marks.afterReflection)));
    const full = derive(foldRun(run.log.events));

    const earlyIds = early.nodes.map((node) => node.id);
    const laterIds = new Set(later.nodes.map((node) => node.id));
    for (const id of earlyIds) expect(laterIds.has(id)).toBe(true);

    // Steps of trial 1 did not change: same objects, not copies.
    const stepNodes = early.nodes.filter((node) => node.type === "thought" || node.type === "action" || node.type === "observation");
    expect(stepNodes.length).toBe(6);
    for (const node of stepNodes) {
      expect(later.nodes.find((candidate) => candidate.id === node.id)).toBe(node);
      expect(full.nodes.find((candidate) => candidate.id === node.id)).toBe(node);
    }
    // The header's outcome changed when trial 1 ended: a new object with the same id.
    const header = early.nodes.find((node) => node.id === run.trial1StartId);
    const headerLater = later.nodes.find((node) => node.id === run.trial1StartId);
    expect(headerLater).not.toBe(header);
    expect(headerLater?.type === "trial" && headerLater.data.outcome).toBe("halted");
  });

  it("returns the very same graph when a new event changes nothing visible", () => {
    const run = twoTrialReflexionRun();
    const derive = createRunGraphDeriver();
    const before = derive(foldRun(run.log.events.slice(0, run.marks.afterReflection - 1)));
    // The checkpoint event adds nothing to the graph.
    const after = derive(foldRun(run.log.events.slice(0, run.marks.afterReflection)));
    expect(after).toBe(before);
    expect(after.nodes).toBe(before.nodes);
  });

  it("does not move trial 1 when trial 2 starts, and adds the memory edge then", () => {
    const run = twoTrialReflexionRun();
    const derive = createRunGraphDeriver();
    const paused = derive(foldRun(run.log.events.slice(0, run.marks.afterReflection)));
    expect(paused.edges.filter((edge) => edge.data.kind === "memory")).toHaveLength(0);
    const reflectionBefore = paused.nodes.find((node) => node.id === run.reflectionId);
    expect(reflectionBefore?.type === "reflection" && reflectionBefore.data.inNextContext).toBeNull();

    const started = derive(foldRun(run.log.events.slice(0, run.marks.afterTrial2Start)));
    expect(started.edges.filter((edge) => edge.data.kind === "memory")).toHaveLength(1);
    const lane1Before = paused.nodes.filter((node) => node.data.trial === 1 && node.type !== "reflection");
    for (const node of lane1Before) {
      expect(started.nodes.find((candidate) => candidate.id === node.id)).toBe(node);
    }
    // Same edge objects for trial 1's flow.
    for (const edge of paused.edges) expect(started.edges.find((candidate) => candidate.id === edge.id)).toBe(edge);
  });

  it("re-derives a reflection node after an edit and marks it edited", () => {
    const run = twoTrialReflexionRun();
    const prefix = run.log.events.slice(0, run.marks.afterReflection);
    const derive = createRunGraphDeriver();
    const before = derive(foldRun(prefix));
    run.log.events.splice(run.marks.afterReflection);
    run.log.add("run-pause", { reason: "breakpoint", detail: "after reflection" });
    run.log.add("reflection-edit", { reflectionEventId: run.reflectionId, oldText: "x", newText: "Search both, compare years, then Finish.", note: null });
    const after = derive(foldRun(run.log.events));
    const oldNode = before.nodes.find((node) => node.id === run.reflectionId);
    const newNode = after.nodes.find((node) => node.id === run.reflectionId);
    expect(newNode).not.toBe(oldNode);
    expect(newNode?.type === "reflection" && newNode.data).toMatchObject({ edited: true, text: "Search both, compare years, then Finish." });
    expect(newNode?.position).toEqual(oldNode?.position);
  });
});
