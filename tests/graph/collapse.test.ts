import { describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import {
  collapsedTrials,
  COLLAPSE_POLICY,
  createCollapsedViewDeriver,
  createRunGraphDeriver,
  defaultCollapsedTrials,
  deriveRunGraph,
  summarizeTrials,
  trialGroupNodeId,
  type RunGraph,
  type RunGraphView,
} from "@/lib/graph";
import { stressRunEvents } from "@/lib/graph/stress-run";
import { twoTrialReflexionRun } from "./fixtures";

const longRun = stressRunEvents({ trials: 24, family: "household" });
const longGraph = deriveRunGraph(foldRun(longRun));
const smallGraph = deriveRunGraph(foldRun(twoTrialReflexionRun().log.events));

const noOverrides = new Map<number, boolean>();
const headerOf = (graph: RunGraph, trial: number) => graph.nodes.find((node) => node.type === "trial" && node.data.trial === trial)!;

/** Every edge of the view joins two nodes of the view, on handles the node kinds have. */
function expectConsistent(view: RunGraphView): void {
  const ids = new Set(view.nodes.map((node) => node.id));
  for (const edge of view.edges) {
    expect(ids.has(edge.source), `edge ${edge.id} source ${edge.source}`).toBe(true);
    expect(ids.has(edge.target), `edge ${edge.id} target ${edge.target}`).toBe(true);
  }
}

describe("which trials start collapsed", () => {
  it("none in a small run: it is drawn as before", () => {
    expect(smallGraph.nodes.length).toBeLessThanOrEqual(COLLAPSE_POLICY.largeGraphNodes);
    expect(defaultCollapsedTrials(smallGraph)).toEqual([]);
    const view = createCollapsedViewDeriver()(smallGraph, []);
    expect(view.nodes).toBe(smallGraph.nodes);
    expect(view.edges).toBe(smallGraph.edges);
  });

  it("in a long run, every trial but the two newest", () => {
    // ~720 nodes: household steps have no thought node (decision 0020), ~1,000 before.
    expect(longGraph.nodes.length).toBeGreaterThan(650);
    expect(defaultCollapsedTrials(longGraph)).toEqual(Array.from({ length: 22 }, (_, index) => index + 1));
  });

  it("never the trial in progress, even when the reader collapsed it", () => {
    // The log cut in the middle of trial 24: its trial-end has not arrived.
    const cut = longRun.findIndex((event) => event.type === "trial-end" && event.data.trial === 24);
    const running = deriveRunGraph(foldRun(longRun.slice(0, cut)));
    const collapsed = collapsedTrials({ graph: running, mode: "auto", overrides: new Map([[24, true]]), selectedNodeId: null });
    expect(collapsed).not.toContain(24);
    expect(collapsed).toContain(1);
  });

  it("never the trial of the selected node", () => {
    const selected = longGraph.nodes.find((node) => node.type === "observation" && node.data.trial === 5)!;
    const collapsed = collapsedTrials({ graph: longGraph, mode: "auto", overrides: noOverrides, selectedNodeId: selected.id });
    expect(collapsed).not.toContain(5);
    expect(collapsed).toContain(4);
    expect(collapsed).toContain(6);
  });

  it("follows the reader's choices over the default, both ways", () => {
    const overrides = new Map([
      [3, false],
      [24, true],
    ]);
    const collapsed = collapsedTrials({ graph: longGraph, mode: "auto", overrides, selectedNodeId: null });
    expect(collapsed).not.toContain(3);
    expect(collapsed).toContain(24);
    expect(collapsedTrials({ graph: smallGraph, mode: "auto", overrides: new Map([[1, true]]), selectedNodeId: null })).toEqual([1]);
  });

  it("starts with nothing collapsed in mode off", () => {
    expect(collapsedTrials({ graph: longGraph, mode: "off", overrides: noOverrides, selectedNodeId: null })).toEqual([]);
  });
});

describe("the collapsed view", () => {
  const collapsed = defaultCollapsedTrials(longGraph);
  const view = createCollapsedViewDeriver()(longGraph, collapsed);

  it("draws a collapsed trial as one group node where its header was, and nothing else of its lane", () => {
    const groups = view.nodes.filter((node) => node.type === "trial-group");
    expect(groups.map((node) => node.data.trial)).toEqual(collapsed);
    const header = headerOf(longGraph, 7);
    const group = groups.find((node) => node.data.trial === 7)!;
    expect(group.id).toBe(trialGroupNodeId(header.id));
    expect(group.position).toEqual(header.position);
    expect(view.nodes.filter((node) => node.type !== "trial-group" && node.data.trial === 7)).toEqual([]);
    // ~720 nodes drawn as ~80: 22 groups and two open lanes.
    expect(view.nodes.length).toBeLessThan(150);
  });

  it("keeps the open trials' nodes as the graph's own objects", () => {
    const open = longGraph.nodes.filter((node) => node.data.trial >= 23);
    for (const node of open) expect(view.nodes).toContain(node);
  });

  it("summarises what the collapsed trial holds", () => {
    const summary = summarizeTrials(longGraph).get(7)!;
    const lane = longGraph.nodes.filter((node) => node.type !== "lane" && node.data.trial === 7);
    expect(summary.hiddenNodes).toBe(lane.length);
    expect(summary.steps).toBe(foldRun(longRun).trials[6]!.steps.length);
    expect(summary.verdict).toBe("fail");
    expect(summary.outcome).toBe("halted");
    expect(summary.reflection).toMatch(/^In trial 7 /);
    // The household loop that halts the trial: the same action and observation, three times.
    expect(summary.loops).toBe(2);
  });

  it("reroutes memory edges to the groups and drops the collapsed trials' flow edges", () => {
    expectConsistent(view);
    const memory = view.edges.filter((edge) => edge.data.kind === "memory");
    expect(memory).toHaveLength(23);
    const fromSeven = memory.find((edge) => edge.source === trialGroupNodeId(headerOf(longGraph, 7).id))!;
    expect(fromSeven.target).toBe(trialGroupNodeId(headerOf(longGraph, 8).id));
    expect(fromSeven.sourceHandle).toBe("memory-out");
    expect(fromSeven.targetHandle).toBe("memory-in");
    // The last collapsed trial's reflection feeds the first open trial's header.
    const intoOpen = memory.find((edge) => edge.target === headerOf(longGraph, 23).id)!;
    expect(intoOpen.source).toBe(trialGroupNodeId(headerOf(longGraph, 22).id));
    // Only the open trials keep flow edges (each is a chain: one edge fewer than its nodes).
    expect(view.edges.filter((edge) => edge.data.kind === "flow")).toHaveLength(countFlowEdges(longGraph, [23, 24]));
    expect(countFlowEdges(longGraph, [23, 24])).toBe(summarizeTrials(longGraph).get(23)!.hiddenNodes - 1 + summarizeTrials(longGraph).get(24)!.hiddenNodes - 1);
  });

  it("reuses the view, and unchanged groups and edges, across calls", () => {
    const derive = createCollapsedViewDeriver();
    const first = derive(longGraph, collapsed);
    expect(derive(longGraph, [...collapsed].reverse())).toBe(first);
    const expanded = derive(longGraph, collapsed.filter((trial) => trial !== 10));
    expectConsistent(expanded);
    const groupOf = (target: RunGraphView, trial: number) => target.nodes.find((node) => node.type === "trial-group" && node.data.trial === trial);
    expect(groupOf(expanded, 3)).toBe(groupOf(first, 3));
    expect(groupOf(expanded, 10)).toBeUndefined();
    expect(expanded.nodes).toContain(headerOf(longGraph, 10));
    const edgeInto = (target: RunGraphView, trial: number) => target.edges.find((edge) => edge.data.kind === "memory" && edge.target.endsWith(headerOf(longGraph, trial).id));
    expect(edgeInto(expanded, 4)).toBe(edgeInto(first, 4));
  });

  it("follows a growing log: a live run's new trial pushes the oldest open trial into a group", () => {
    const derive = createRunGraphDeriver();
    const cut = longRun.findIndex((event) => event.type === "trial-start" && event.data.trial === 24);
    const before = derive(foldRun(longRun.slice(0, cut)));
    expect(defaultCollapsedTrials(before)).toEqual(Array.from({ length: 21 }, (_, index) => index + 1));
    const after = derive(foldRun(longRun.slice(0, cut + 1)));
    // Trial 24 has started (in progress): trials 23 and 24 stay open.
    expect(defaultCollapsedTrials(after)).toEqual(Array.from({ length: 22 }, (_, index) => index + 1));
  });
});

function countFlowEdges(graph: RunGraph, trials: number[]): number {
  const trialOf = new Map(graph.nodes.map((node) => [node.id, node.data.trial]));
  return graph.edges.filter((edge) => edge.data.kind === "flow" && trials.includes(trialOf.get(edge.source) ?? -1)).length;
}

describe("the synthetic stress run", () => {
  it("has ~720 graph nodes for 24 household trials (no empty thought nodes, decision 0020), and is deterministic per seed", () => {
    expect(longGraph.nodes.length).toBeGreaterThan(650);
    expect(longGraph.nodes.length).toBeLessThan(800);
    expect(stressRunEvents({ trials: 24, family: "household" })).toEqual(longRun);
    expect(stressRunEvents({ trials: 24, family: "household", seed: 2 })).not.toEqual(longRun);
  });

  it("fails every trial but the last, which succeeds, with a reflection and memory window Ω = 3", () => {
    const state = foldRun(longRun);
    expect(state.trials.map((trial) => trial.outcome)).toEqual([...Array<string>(23).fill("halted"), "success"]);
    expect(state.trials.filter((trial) => trial.reflection !== null)).toHaveLength(23);
    expect(state.trials[10]!.memory).toHaveLength(3);
    expect(state.trials[10]!.evicted).toHaveLength(7);
    expect(state.outcome).toBe("success");
  });
});
