import type { GraphNodeKind } from "./types";

/** Fixed node width (px). Every lane is one node wide. */
export const NODE_WIDTH = 272;

/**
 * Fixed node heights (px) per kind. Fixed sizes keep the layout deterministic
 * and testable; node components clamp their text to fit.
 */
export const NODE_HEIGHTS: Readonly<Record<Exclude<GraphNodeKind, "lane">, number>> = {
  trial: 64,
  thought: 92,
  action: 72,
  observation: 84,
  evaluation: 96,
  reflection: 124,
  refinement: 112,
  "call-error": 68,
  "live-call": 124,
};

/** Inner padding of a lane background around its nodes. */
export const LANE_PADDING = 14;
/** Horizontal space between two lanes' backgrounds. */
export const LANE_GAP = 96;
/** Vertical gap between consecutive nodes of a lane. */
export const RANK_GAP = 30;

/**
 * One trial's column: its nodes from top (lane header) to bottom, in order.
 * `height` overrides the kind's {@link NODE_HEIGHTS} entry (code runs draw
 * some kinds taller).
 */
export interface LayoutLane {
  laneId: string;
  nodes: ReadonlyArray<{ id: string; kind: Exclude<GraphNodeKind, "lane">; height?: number }>;
}

type LaneNode = LayoutLane["nodes"][number];

/** A node's height: its own override, else its kind's. */
export function nodeHeight(node: LaneNode): number {
  return node.height ?? NODE_HEIGHTS[node.kind];
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Top-left positions (React Flow convention) of every node and lane background. */
export interface LayoutResult {
  nodes: Map<string, Rect>;
  lanes: Map<string, Rect>;
}

/** A string that changes exactly when one lane's layout input changes: its node ids and kinds, in order. */
export function laneTopologyKey(lane: LayoutLane): string {
  return `${lane.laneId}[${lane.nodes.map((node) => `${node.id}:${node.kind}${node.height === undefined ? "" : `@${node.height}`}`).join(",")}]`;
}

/**
 * A string that changes exactly when the layout's input changes: lane order,
 * node ids, kinds and height overrides. Content updates (text, verdicts) keep it equal.
 */
export function topologyKey(lanes: readonly LayoutLane[]): string {
  return lanes.map(laneTopologyKey).join("|");
}

/** Vertical placement of one lane's nodes, relative to the lane's first node. */
export type LaneLayout = ReadonlyMap<string, { y: number; height: number }>;

/**
 * Lays out one lane as a top → bottom chain: each node sits {@link RANK_GAP}
 * below the previous one. This is exactly what dagre computes for a chain
 * (`rankdir: "TB"`, `ranksep: RANK_GAP`, `rankalign: "top"`, one node per
 * rank) — tests/graph/layout.test.ts checks it against dagre — in O(n) instead
 * of ~15–20 ms per 45-node lane (decision 0013). Lanes are laid out
 * independently (and cached per lane by {@link createLayoutCache}) so a node
 * appended to one trial never moves nodes of another trial; since every lane
 * repeats the same thought → action → observation pattern with fixed heights,
 * step k of each trial still lands on the same row.
 */
export function layoutLane(lane: LayoutLane): LaneLayout {
  const placed = new Map<string, { y: number; height: number }>();
  let y = 0;
  for (const node of lane.nodes) {
    const height = nodeHeight(node);
    placed.set(node.id, { y, height });
    y += height + RANK_GAP;
  }
  return placed;
}

/** Remembers each lane's layout by its topology key, so unchanged lanes are not laid out again. */
export interface LayoutCache {
  get(lane: LayoutLane): LaneLayout;
}

/** A cache of lane layouts that keeps only the lanes seen in the latest pass. */
export function createLayoutCache(): LayoutCache & { size(): number } {
  const entries = new Map<string, LaneLayout>();
  // The key each lane id is cached under: a growing lane replaces its own entry in O(1) (a scan of every entry per new lane was quadratic in trials).
  const keyOfLane = new Map<string, string>();
  return {
    get(lane) {
      const key = laneTopologyKey(lane);
      let layout = entries.get(key);
      if (!layout) {
        layout = layoutLane(lane);
        // One entry per lane id: drop the lane's stale layout as it grows.
        const stale = keyOfLane.get(lane.laneId);
        if (stale !== undefined) entries.delete(stale);
        keyOfLane.set(lane.laneId, key);
        entries.set(key, layout);
      }
      return layout;
    },
    size: () => entries.size,
  };
}

/**
 * Lays out trials as vertical lanes, left to right in trial order: x is fixed
 * per lane (dagre does not guarantee the order of disconnected chains) and y
 * comes from {@link layoutLane}. Cross-lane edges (memory) take no part in the
 * layout: with them dagre would stack trial 2 below trial 1 instead of beside it.
 */
export function layoutRunGraph(lanes: readonly LayoutLane[], cache?: LayoutCache): LayoutResult {
  const nodes = new Map<string, Rect>();
  const laneRects = new Map<string, Rect>();
  lanes.forEach((lane, laneIndex) => {
    const placed = placeLane(lane, laneIndex, cache ? cache.get(lane) : layoutLane(lane));
    for (const [id, rect] of placed.nodes) nodes.set(id, rect);
    laneRects.set(lane.laneId, placed.lane);
  });
  return { nodes, lanes: laneRects };
}

/** Horizontal distance between two lanes' left edges, px. */
export const LANE_PITCH = NODE_WIDTH + 2 * LANE_PADDING + LANE_GAP;

/**
 * One lane's rectangles as {@link layoutRunGraph} places it at `laneIndex` (0 = leftmost): its
 * nodes (from the lane's vertical layout `placed`) and its background, px. Lets a caller that
 * keeps lanes apart (the run graph's per-trial memo) place one lane without the others.
 */
export function placeLane(lane: LayoutLane, laneIndex: number, placed: LaneLayout): { nodes: Map<string, Rect>; lane: Rect } {
  const x = laneIndex * LANE_PITCH;
  const nodes = new Map<string, Rect>();
  let bottom = 0;
  for (const node of lane.nodes) {
    const place = placed.get(node.id);
    if (!place) continue;
    nodes.set(node.id, { x, y: place.y, width: NODE_WIDTH, height: place.height });
    bottom = Math.max(bottom, place.y + place.height);
  }
  return {
    nodes,
    lane: { x: x - LANE_PADDING, y: -LANE_PADDING, width: NODE_WIDTH + 2 * LANE_PADDING, height: bottom + 2 * LANE_PADDING },
  };
}
