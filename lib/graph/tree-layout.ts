import dagre from "@dagrejs/dagre";
import { TREE_ROOT_ID, type TreeNodeView, type TreeSearchView } from "@/lib/domain/tree-search";
import { TREE_DAGRE_MAX_NODES, tidyTreePositions } from "./tree-tidy-layout";

/**
 * The layout of a LATS search tree (lib/domain/tree-search.ts) for the tree view
 * (components/tree-search): dagre, top → bottom, one node per Thought → Action → Observation
 * step (above {@link TREE_DAGRE_MAX_NODES} drawn nodes a closed-form layout, lib/graph/tree-tidy-layout.ts). What the view encodes, and where it is computed:
 *
 * - colour = V(s), the node's value ({@link valueColour}: 0 red → 0.5 yellow → 1 green, grey
 *   when the node has no value yet);
 * - size = N(s), its visits ({@link treeNodeSize}: grows with log visits, bounded);
 * - a collapsed node hides its subtree and counts what it hides;
 * - the highlighted path (ids root → node) marks its nodes and the edges between them.
 *
 * Pure. {@link createTreeLayouter} memoises: dagre runs again only when the tree's shape, a node's
 * size or the collapsed set changes; a value, a highlight or a new terminal only restyles.
 */

/** Vertical space between a parent and its children (px). */
export const TREE_RANK_GAP = 56;
/** Horizontal space between siblings (px). */
export const TREE_NODE_GAP = 24;
/** Size of a node never visited (px). */
export const TREE_NODE_MIN = { width: 160, height: 72 } as const;
/** Size of a node with {@link TREE_VISITS_FOR_MAX} visits or more (px). */
export const TREE_NODE_MAX = { width: 224, height: 96 } as const;
/** Visits at which a node reaches its largest size: more visits do not grow it further. */
export const TREE_VISITS_FOR_MAX = 16;
/** The colour of a node without a value (never estimated, never visited): slate-400. */
export const NO_VALUE_COLOUR = "#94a3b8";

/** The value scale's stops, value → colour (red-600, yellow-500, green-600). */
export const VALUE_STOPS: ReadonlyArray<readonly [number, string]> = [
  [0, "#dc2626"],
  [0.5, "#eab308"],
  [1, "#16a34a"],
];

/** One placed node of the search tree. */
export interface TreeLayoutNode {
  id: string;
  /** The node as the fold built it. */
  node: TreeNodeView;
  /** Top-left corner and size (React Flow's convention), px. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Fill for the value: {@link valueColour} of `node.value`. */
  colour: string;
  /** The node is collapsed: its subtree is not drawn. */
  collapsed: boolean;
  /** How many nodes the collapse hides (all descendants); 0 when not collapsed. */
  hiddenCount: number;
  /** All descendants, drawn or not: what collapsing the node would hide. */
  descendants: number;
  /** The node is on the highlighted path. */
  highlighted: boolean;
}

/** A parent → child edge between two drawn nodes. */
export interface TreeLayoutEdge {
  /** `<parent>-><child>`. */
  id: string;
  source: string;
  target: string;
  /** Both ends are consecutive on the highlighted path. */
  highlighted: boolean;
}

/** The laid-out tree. */
export interface TreeLayout {
  /** Drawn nodes in creation order (the root first); nodes inside a collapsed subtree are left out. */
  nodes: TreeLayoutNode[];
  edges: TreeLayoutEdge[];
  /** Every node of the tree, drawn or not. */
  total: number;
  /** Bounding box of the drawn nodes, px. */
  width: number;
  height: number;
}

/** What to draw besides the tree itself. */
export interface TreeLayoutOptions {
  /** Nodes whose subtrees are hidden. Unknown ids are ignored. */
  collapsed?: ReadonlySet<string>;
  /** A path of ids root → node (the latest iteration's or the best path); it need not be complete. */
  highlight?: readonly string[];
  /** The layout engine (default `auto`: dagre up to {@link TREE_DAGRE_MAX_NODES} drawn nodes, closed form above). */
  engine?: TreeLayoutEngine;
}

function hex(colour: string): [number, number, number] {
  return [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16)) as [number, number, number];
}

/**
 * The colour of a value on the tree's scale: linear (sRGB) between {@link VALUE_STOPS}, values
 * outside 0–1 clamped; {@link NO_VALUE_COLOUR} for null (or NaN). Returns `#rrggbb`.
 */
export function valueColour(value: number | null): string {
  if (value === null || Number.isNaN(value)) return NO_VALUE_COLOUR;
  const v = Math.min(1, Math.max(0, value));
  let index = 0;
  while (index < VALUE_STOPS.length - 2 && v > VALUE_STOPS[index + 1]![0]) index += 1;
  const [from, fromColour] = VALUE_STOPS[index]!;
  const [to, toColour] = VALUE_STOPS[index + 1]!;
  const t = (v - from) / (to - from);
  const a = hex(fromColour);
  const b = hex(toColour);
  return `#${a.map((channel, at) => Math.round(channel + (b[at]! - channel) * t).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A node's size for its visits N(s): from {@link TREE_NODE_MIN} (never visited) to
 * {@link TREE_NODE_MAX} (at {@link TREE_VISITS_FOR_MAX} visits and beyond), on a log scale so the
 * first few visits show. Whole pixels.
 */
export function treeNodeSize(visits: number): { width: number; height: number } {
  const t = Math.min(1, Math.log1p(Math.max(0, visits)) / Math.log1p(TREE_VISITS_FOR_MAX));
  return {
    width: Math.round(TREE_NODE_MIN.width + (TREE_NODE_MAX.width - TREE_NODE_MIN.width) * t),
    height: Math.round(TREE_NODE_MIN.height + (TREE_NODE_MAX.height - TREE_NODE_MIN.height) * t),
  };
}

/** Descendant counts of every node (iteratively, children after parents in `order`). */
function descendantCounts(tree: TreeSearchView): Map<string, number> {
  const counts = new Map<string, number>();
  for (let at = tree.order.length - 1; at >= 0; at -= 1) {
    const id = tree.order[at]!;
    const node = tree.nodes.get(id);
    if (!node) continue;
    let count = 0;
    for (const child of node.children) count += 1 + (counts.get(child) ?? 0);
    counts.set(id, count);
  }
  return counts;
}

/** The ids drawn: every node not strictly inside a collapsed subtree, in creation order. */
function drawnIds(tree: TreeSearchView, collapsed: ReadonlySet<string>): string[] {
  const hidden = new Set<string>();
  const drawn: string[] = [];
  for (const id of tree.order) {
    const node = tree.nodes.get(id);
    if (!node) continue;
    // A node under a collapsed or hidden node is hidden; so is one whose parent is unknown (only a damaged tree has one).
    if (node.parent !== null && (hidden.has(node.parent) || collapsed.has(node.parent) || !tree.nodes.has(node.parent))) {
      hidden.add(id);
      continue;
    }
    drawn.push(id);
  }
  return drawn;
}

interface Geometry {
  key: string;
  drawn: string[];
  positions: Map<string, { x: number; y: number; width: number; height: number }>;
  width: number;
  height: number;
}

/** Which layout places the nodes: dagre up to {@link TREE_DAGRE_MAX_NODES} drawn nodes, the closed-form one above (`auto`). */
export type TreeLayoutEngine = "auto" | "dagre" | "tidy";

/** Places the drawn nodes: dagre for a small tree, {@link tidyTreePositions} for a large one (or as `engine` says). */
function placeNodes(tree: TreeSearchView, drawn: readonly string[], key: string, engine: TreeLayoutEngine): Geometry {
  if (engine === "tidy" || (engine === "auto" && drawn.length > TREE_DAGRE_MAX_NODES)) {
    const placed = tidyTreePositions(tree, drawn, (id) => treeNodeSize(tree.nodes.get(id)!.visits), { rankGap: TREE_RANK_GAP, nodeGap: TREE_NODE_GAP });
    return { key, drawn: [...drawn], ...placed };
  }
  return placeWithDagre(tree, drawn, key);
}

/** Runs dagre over the drawn nodes. */
function placeWithDagre(tree: TreeSearchView, drawn: readonly string[], key: string): Geometry {
  const graph = new dagre.graphlib.Graph();
  // A tree has no crossings to minimise: ranks from a tight tree (a tree's ranks are its depths, as
  // network simplex would find) and no crossing-reduction sweeps, which keeps siblings in creation
  // order and halves dagre's time on 1,000 nodes.
  graph.setGraph({ rankdir: "TB", ranksep: TREE_RANK_GAP, nodesep: TREE_NODE_GAP, marginx: 0, marginy: 0, ranker: "tight-tree" });
  graph.setDefaultEdgeLabel(() => ({}));
  const sizes = new Map<string, { width: number; height: number }>();
  for (const id of drawn) {
    const size = treeNodeSize(tree.nodes.get(id)!.visits);
    sizes.set(id, size);
    // dagre writes x and y into the label it is given: give it its own object.
    graph.setNode(id, { ...size });
  }
  for (const id of drawn) {
    const parent = tree.nodes.get(id)!.parent;
    if (parent !== null && sizes.has(parent)) graph.setEdge(parent, id);
  }
  dagre.layout(graph, { disableOptimalOrderHeuristic: true });
  const positions = new Map<string, { x: number; y: number; width: number; height: number }>();
  let maxX = 0;
  let maxY = 0;
  for (const id of drawn) {
    const placed = graph.node(id);
    const size = sizes.get(id)!;
    const box = { x: Math.round(placed.x - size.width / 2), y: Math.round(placed.y - size.height / 2), width: size.width, height: size.height };
    positions.set(id, box);
    maxX = Math.max(maxX, box.x + box.width);
    maxY = Math.max(maxY, box.y + box.height);
  }
  return { key, drawn: [...drawn], positions, width: maxX, height: maxY };
}

/** What the geometry depends on: the drawn ids with their parents and size class. */
function geometryKey(tree: TreeSearchView, drawn: readonly string[]): string {
  let key = "";
  for (const id of drawn) {
    const node = tree.nodes.get(id)!;
    const size = treeNodeSize(node.visits);
    key += `${id}<${node.parent ?? ""}:${size.width}|`;
  }
  return key;
}

function sameNode(a: TreeLayoutNode, b: Omit<TreeLayoutNode, "id">): boolean {
  return (
    a.node === b.node &&
    a.x === b.x &&
    a.y === b.y &&
    a.width === b.width &&
    a.height === b.height &&
    a.colour === b.colour &&
    a.collapsed === b.collapsed &&
    a.hiddenCount === b.hiddenCount &&
    a.descendants === b.descendants &&
    a.highlighted === b.highlighted
  );
}

/** A function that lays out a tree, remembering its last result (see {@link createTreeLayouter}). */
export type TreeLayouter = ((tree: TreeSearchView, options?: TreeLayoutOptions) => TreeLayout) & {
  /** How many times dagre has run: for tests and benchmarks. */
  readonly layouts: number;
};

/**
 * A memoising tree layouter, one per view. dagre (the costly part: ~100 ms for 1,000 nodes on
 * a slow machine) runs only when the drawn nodes, their parents, their size class or the
 * collapsed set change; a new value, reflection or highlight reuses the positions. Node and edge
 * objects that did not change are the same objects as last time, and the same arguments give the
 * same layout object, so React Flow only re-renders what changed.
 */
export function createTreeLayouter(): TreeLayouter {
  let geometry: Geometry | null = null;
  let last: { tree: TreeSearchView; collapsedKey: string; highlightKey: string; layout: TreeLayout } | null = null;
  let layouts = 0;
  const nodeCache = new Map<string, TreeLayoutNode>();
  const edgeCache = new Map<string, TreeLayoutEdge>();

  const layouter = (tree: TreeSearchView, options: TreeLayoutOptions = {}): TreeLayout => {
    const collapsedSet = options.collapsed ?? new Set<string>();
    const collapsedKey = [...collapsedSet].filter((id) => tree.nodes.has(id)).sort().join("\n");
    const highlight = options.highlight ?? [];
    const highlightKey = highlight.join("\n");
    // The fold may mutate its own tree in place: identity alone cannot tell a tree unchanged, so
    // the geometry key is checked every time (cheap next to dagre).
    const drawn = drawnIds(tree, collapsedSet);
    const key = `${geometryKey(tree, drawn)}#${collapsedKey}#${options.engine ?? "auto"}`;
    if (!geometry || geometry.key !== key) {
      geometry = placeNodes(tree, drawn, key, options.engine ?? "auto");
      layouts += 1;
    }
    const descendants = descendantCounts(tree);
    const onPath = new Set(highlight);
    const pathEdges = new Set<string>();
    for (let at = 1; at < highlight.length; at += 1) pathEdges.add(`${highlight[at - 1]}->${highlight[at]}`);

    let changed = !last || last.tree !== tree || last.collapsedKey !== collapsedKey || last.highlightKey !== highlightKey;
    const nodes: TreeLayoutNode[] = [];
    const edges: TreeLayoutEdge[] = [];
    const seen = new Set<string>();
    for (const id of geometry.drawn) {
      const node = tree.nodes.get(id)!;
      const box = geometry.positions.get(id)!;
      const collapsed = collapsedSet.has(id) && node.children.length > 0;
      const count = descendants.get(id) ?? 0;
      const next = {
        node,
        ...box,
        colour: valueColour(node.value),
        collapsed,
        hiddenCount: collapsed ? count : 0,
        descendants: count,
        highlighted: onPath.has(id),
      };
      const cached = nodeCache.get(id);
      let placed: TreeLayoutNode;
      if (cached && sameNode(cached, next)) placed = cached;
      else {
        placed = { id, ...next };
        nodeCache.set(id, placed);
        changed = true;
      }
      nodes.push(placed);
      seen.add(id);
      if (node.parent !== null && geometry.positions.has(node.parent)) {
        const edgeId = `${node.parent}->${id}`;
        const highlighted = pathEdges.has(edgeId);
        let edge = edgeCache.get(edgeId);
        if (!edge || edge.highlighted !== highlighted) {
          edge = { id: edgeId, source: node.parent, target: id, highlighted };
          edgeCache.set(edgeId, edge);
          changed = true;
        }
        edges.push(edge);
      }
    }
    for (const id of nodeCache.keys()) if (!seen.has(id)) nodeCache.delete(id);
    for (const [id, edge] of edgeCache) if (!seen.has(edge.target)) edgeCache.delete(id);
    if (!changed && last && last.layout.nodes.length === nodes.length) return last.layout;
    const layout: TreeLayout = { nodes, edges, total: tree.nodes.size, width: geometry.width, height: geometry.height };
    last = { tree, collapsedKey, highlightKey, layout };
    return layout;
  };
  Object.defineProperty(layouter, "layouts", { get: () => layouts });
  return layouter as TreeLayouter;
}

/**
 * Lays a search tree out once (no memory between calls): parents above children, siblings left to
 * right in creation order. See {@link createTreeLayouter} for the view's memoised form.
 */
export function layoutTree(tree: TreeSearchView, options: TreeLayoutOptions = {}): TreeLayout {
  return createTreeLayouter()(tree, options);
}

/** Whether the search has not expanded the root yet (the tree is the root alone). */
export function treeIsEmpty(tree: TreeSearchView): boolean {
  return (tree.nodes.get(TREE_ROOT_ID)?.children.length ?? 0) === 0;
}
