import { describe, expect, it } from "vitest";
import { applyEvent, foldRun, type RunState } from "@/lib/domain/fold-run";
import { createReplayFolder } from "@/lib/domain/replay-fold";
import { collapsedTrials, createCollapsedViewDeriver, createRunGraphDeriver, deriveRunGraph, laneNodeId, laneSegments, pinnedTrials, summarizeTrials, type RunGraph, type RunGraphNode } from "@/lib/graph";
import { stressFamilies, stressRunEvents } from "@/lib/graph/stress-run";

/**
 * The run graph deriver's per-trial memo (decision 0042): after a replay cursor's move, the trials
 * the move did not touch come back as the very same node and edge objects, and the graph equals one
 * derived from scratch at that cursor, wherever the cursor jumps.
 */

/** The nodes of one trial's lane (its background included), by id. */
function laneNodes(graph: RunGraph, trial: number): Map<string, RunGraphNode> {
  return new Map(graph.nodes.filter((node) => node.data.trial === trial).map((node) => [node.id, node]));
}

describe("run graph deriver: per-trial memo", () => {
  const log = stressRunEvents({ trials: 30, family: stressFamilies()[0]!, seed: 9 });
  const every = 50;

  it("hands back the same node and edge objects for trials a move does not touch, new ones for the trial it does", () => {
    const folder = createReplayFolder(log, { every });
    const derive = createRunGraphDeriver();
    const end = folder.stateAt(log.length);
    const atEnd = derive(end);
    const before = derive(folder.stateAt(log.length - 5));
    const first = end.trials[0]!.trial;
    const firstLane = laneNodes(atEnd, first);
    expect(firstLane.size).toBeGreaterThan(5);
    for (const [id, node] of laneNodes(before, first)) expect(node, id).toBe(firstLane.get(id));
    const firstEdges = atEnd.edges.filter((edge) => firstLane.has(edge.source));
    expect(firstEdges.length).toBeGreaterThan(3);
    for (const edge of firstEdges) expect(before.edges).toContain(edge);
    // Back at the end: the last trial (a new copy of its view) draws nodes equal to the first time.
    const again = derive(folder.stateAt(log.length));
    const lastTrial = end.trials.at(-1)!.trial;
    for (const [id, node] of laneNodes(again, lastTrial)) expect(node, id).toEqual(laneNodes(atEnd, lastTrial).get(id));
    // The five events the move dropped are gone from the graph before the end.
    expect(before.nodes.length).toBeLessThan(atEnd.nodes.length);
    // Far back: the first trial's lane is unchanged in the graph, though the later lanes are gone.
    const early = derive(folder.stateAt(Math.floor(log.length / 3)));
    for (const [id, node] of laneNodes(early, first)) expect(node, id).toBe(firstLane.get(id));
    expect(early.nodes.some((node) => node.id === laneNodeId(end.trials.at(-1)!.startEventId))).toBe(false);
  });

  it("equals a graph derived from scratch at every cursor it visits, jumping back and forth", () => {
    const folder = createReplayFolder(log, { every });
    const derive = createRunGraphDeriver();
    let seed = 5;
    const cursors = [log.length, 0, log.length, 1, Math.floor(log.length / 2), log.length - 1, every, every - 1];
    for (let move = 0; move < 60; move += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      cursors.push(seed % (log.length + 1));
    }
    for (const at of cursors) {
      const state = folder.stateAt(at);
      expect(derive(state), `cursor ${at}`).toEqual(deriveRunGraph(foldRun(log.slice(0, at))));
    }
  });

  it("re-derives a trial mutated in place by an incremental fold (the same trial object, changed)", () => {
    const derive = createRunGraphDeriver();
    const state: RunState = foldRun(log.slice(0, 40));
    derive(state);
    for (const event of log.slice(40, 140)) {
      applyEvent(state, event);
      expect(derive({ ...state }), `after ${event.type} ${event.seq}`).toEqual(deriveRunGraph(state));
    }
  });

  it("views a derived graph lane by lane as a plain copy of it is viewed node by node (summaries, pins, collapsed view)", () => {
    const folder = createReplayFolder(log, { every });
    const derive = createRunGraphDeriver();
    const byLane = createCollapsedViewDeriver();
    for (const at of [log.length, log.length - 7, Math.floor(log.length / 2), log.length]) {
      const graph = derive(folder.stateAt(at));
      expect(laneSegments(graph)).not.toBeNull();
      const plain: RunGraph = { nodes: [...graph.nodes], edges: [...graph.edges] };
      expect(laneSegments(plain)).toBeNull();
      expect(summarizeTrials(graph)).toEqual(summarizeTrials(plain));
      const selected = graph.nodes[3]!.id;
      for (const selectedNodeId of [null, selected]) expect(pinnedTrials(graph, selectedNodeId)).toEqual(pinnedTrials(plain, selectedNodeId));
      // Every trial but the two newest asked collapsed (the one in progress stays open).
      const overrides = new Map([...summarizeTrials(graph).keys()].slice(0, -2).map((trial) => [trial, true] as const));
      const collapsed = collapsedTrials({ graph, mode: "auto", overrides, selectedNodeId: null });
      expect(collapsed.length).toBeGreaterThan(5);
      expect(collapsed).toEqual(collapsedTrials({ graph: plain, mode: "auto", overrides, selectedNodeId: null }));
      expect(byLane(graph, collapsed)).toEqual(createCollapsedViewDeriver()(plain, collapsed));
      // Collapsing every other trial as well: memory edges between a collapsed and an open trial are rerouted the same way.
      const alternate = collapsed.filter((trial) => trial % 2 === 0);
      expect(byLane(graph, alternate)).toEqual(createCollapsedViewDeriver()(plain, alternate));
    }
  });
});
