import dagre from "@dagrejs/dagre";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { layoutLane, NODE_HEIGHTS, NODE_WIDTH, nodeHeight, type LayoutLane } from "@/lib/graph";
import { RANK_GAP } from "@/lib/graph/layout";

type Kind = LayoutLane["nodes"][number]["kind"];
const KINDS = Object.keys(NODE_HEIGHTS) as Kind[];

/** The lane layout as it was computed with dagre before decision 0013: the reference. */
function dagreLane(lane: LayoutLane): Map<string, { y: number; height: number }> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "TB", ranksep: RANK_GAP, nodesep: 0, rankalign: "top", marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  let previous: string | null = null;
  for (const node of lane.nodes) {
    graph.setNode(node.id, { width: NODE_WIDTH, height: nodeHeight(node) });
    if (previous !== null) graph.setEdge(previous, node.id);
    previous = node.id;
  }
  dagre.layout(graph);
  const placed = new Map<string, { y: number; height: number }>();
  for (const node of lane.nodes) {
    const height = nodeHeight(node);
    placed.set(node.id, { y: Math.round((graph.node(node.id)?.y ?? height / 2) - height / 2), height });
  }
  return placed;
}

const laneArbitrary = fc
  .array(fc.record({ kind: fc.constantFrom(...KINDS), height: fc.option(fc.integer({ min: 40, max: 260 }), { nil: undefined }) }), { minLength: 1, maxLength: 60 })
  .map((nodes): LayoutLane => ({
    laneId: "lane:t",
    nodes: nodes.map((node, index) => (node.height === undefined ? { id: `n${index}`, kind: node.kind } : { id: `n${index}`, kind: node.kind, height: node.height })),
  }));

describe("layoutLane (a chain, laid out in closed form)", () => {
  it("places every node exactly where dagre does, for any lane of any kinds and heights", () => {
    fc.assert(
      fc.property(laneArbitrary, (lane) => {
        expect(layoutLane(lane)).toEqual(dagreLane(lane));
      }),
      { numRuns: 60 },
    );
  });

  it("stacks nodes top to bottom with one rank gap between them", () => {
    const placed = layoutLane({ laneId: "lane:t", nodes: [{ id: "a", kind: "trial" }, { id: "b", kind: "thought" }, { id: "c", kind: "action", height: 100 }] });
    expect([...placed.values()]).toEqual([
      { y: 0, height: NODE_HEIGHTS.trial },
      { y: NODE_HEIGHTS.trial + RANK_GAP, height: NODE_HEIGHTS.thought },
      { y: NODE_HEIGHTS.trial + NODE_HEIGHTS.thought + 2 * RANK_GAP, height: 100 },
    ]);
  });

  it("lays out a 45-node lane in well under a millisecond (dagre took ~15–20 ms)", () => {
    const lane: LayoutLane = { laneId: "lane:t", nodes: Array.from({ length: 45 }, (_, index) => ({ id: `n${index}`, kind: KINDS[index % KINDS.length] ?? "thought" })) };
    const started = performance.now();
    for (let round = 0; round < 100; round += 1) layoutLane(lane);
    expect((performance.now() - started) / 100).toBeLessThan(1);
  });
});
