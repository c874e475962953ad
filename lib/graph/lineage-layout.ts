import dagre from "@dagrejs/dagre";
import type { LineageNode } from "@/lib/domain/template-lineage";

/** Width of a lineage node (px). */
export const LINEAGE_NODE_WIDTH = 248;
/** Height of a lineage node (px): fixed, so the layout is deterministic; the node clamps its text. */
export const LINEAGE_NODE_HEIGHT = 168;
/** Height of the stand-in for a parent in another template (px). */
export const LINEAGE_EXTERNAL_HEIGHT = 64;
/** Vertical space between a parent and its children (px). */
export const LINEAGE_RANK_GAP = 48;
/** Horizontal space between siblings (px). */
export const LINEAGE_NODE_GAP = 32;

/** One placed node: a version of the template, or the parent it was edited from in another template (`version: null`). */
export interface LineageLayoutNode {
  /** The version id. */
  id: string;
  /** The version; null for a parent outside the template (a built-in it was edited from). */
  version: LineageNode | null;
  /** Top-left corner and size (React Flow's convention), px. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Distance from the root of its tree (0 for a root). */
  depth: number;
}

/** A parent → child edge. */
export interface LineageLayoutEdge {
  id: string;
  source: string;
  target: string;
}

/** The laid-out tree. */
export interface LineageLayout {
  /** Parents before children; siblings oldest first. */
  nodes: LineageLayoutNode[];
  edges: LineageLayoutEdge[];
  /** Bounding box of every node, px. */
  width: number;
  height: number;
}

/**
 * Lays a template's versions out as a tree, parents above children (dagre,
 * rank direction top → bottom). A version's parent is the version it was
 * edited from or mutated from; a parent in another template (the built-in a
 * template was edited from) is drawn as a small stand-in node above it. A
 * parent id naming nothing known, or a cycle (only a damaged store could
 * record one), leaves the version as a root rather than failing.
 * Pure: the same versions always give the same layout.
 */
export function layoutLineage(versions: readonly LineageNode[]): LineageLayout {
  const byId = new Map(versions.map((version) => [version.versionId, version]));
  const sorted = [...versions].sort((a, b) => a.number - b.number || a.versionId.localeCompare(b.versionId));
  const parentOf = new Map<string, string>();
  const external = new Set<string>();
  for (const version of sorted) {
    const parent = version.parentId;
    if (parent === null || parent === version.versionId) continue;
    if (!byId.has(parent)) external.add(parent);
    parentOf.set(version.versionId, parent);
  }
  // Break cycles: walking up from a version must end at a root.
  for (const version of sorted) {
    const seen = new Set<string>([version.versionId]);
    let current = parentOf.get(version.versionId);
    while (current !== undefined) {
      if (seen.has(current)) {
        parentOf.delete(version.versionId);
        break;
      }
      seen.add(current);
      current = parentOf.get(current);
    }
  }

  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "TB", ranksep: LINEAGE_RANK_GAP, nodesep: LINEAGE_NODE_GAP, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  const heightOf = (id: string) => (byId.has(id) ? LINEAGE_NODE_HEIGHT : LINEAGE_EXTERNAL_HEIGHT);
  const ids = [...[...external].sort(), ...sorted.map((version) => version.versionId)];
  for (const id of ids) graph.setNode(id, { width: LINEAGE_NODE_WIDTH, height: heightOf(id) });
  const edges: LineageLayoutEdge[] = [];
  for (const version of sorted) {
    const parent = parentOf.get(version.versionId);
    if (parent === undefined) continue;
    graph.setEdge(parent, version.versionId);
    edges.push({ id: `${parent}->${version.versionId}`, source: parent, target: version.versionId });
  }
  dagre.layout(graph);

  const depthOf = (id: string): number => {
    let depth = 0;
    for (let current = parentOf.get(id); current !== undefined; current = parentOf.get(current)) depth += 1;
    return depth;
  };
  const nodes: LineageLayoutNode[] = ids.map((id) => {
    const placed = graph.node(id);
    const height = heightOf(id);
    return {
      id,
      version: byId.get(id) ?? null,
      x: Math.round(placed.x - LINEAGE_NODE_WIDTH / 2),
      y: Math.round(placed.y - height / 2),
      width: LINEAGE_NODE_WIDTH,
      height,
      depth: depthOf(id),
    };
  });
  nodes.sort((a, b) => a.depth - b.depth || (a.version?.number ?? 0) - (b.version?.number ?? 0));
  const width = Math.max(0, ...nodes.map((node) => node.x + node.width)) - Math.min(0, ...nodes.map((node) => node.x));
  const height = Math.max(0, ...nodes.map((node) => node.y + node.height)) - Math.min(0, ...nodes.map((node) => node.y));
  return { nodes, edges, width, height };
}

/**
 * A short read-out of a measured score for a node: "62 % [48–75 %] held-out, n = 40",
 * or "not measured" when the version has no score or no held-out measurement.
 */
export function lineageScoreText(node: LineageNode): string {
  const heldOut = node.score?.heldOut;
  if (!heldOut) return node.score?.train ? `train ${percent(node.score.train.rate)} (not on held-out)` : "not measured";
  const [low, high] = heldOut.interval;
  return `${percent(heldOut.rate)} [${percent(low, false)}–${percent(high)}] held-out, n = ${heldOut.n}${heldOut.repeats > 1 ? ` × ${heldOut.repeats}` : ""}`;
}

function percent(value: number, unit = true): string {
  return `${Math.round(value * 100)}${unit ? " %" : ""}`;
}
