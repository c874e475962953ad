import { describe, expect, it } from "vitest";
import { emptyTree, pathTo, TREE_ROOT_ID, type TreeSearchView } from "@/lib/domain/tree-search";
import { stressTree } from "@/lib/graph/stress-tree";
import {
  createTreeLayouter,
  layoutTree,
  NO_VALUE_COLOUR,
  TREE_NODE_MAX,
  TREE_NODE_MIN,
  TREE_VISITS_FOR_MAX,
  treeIsEmpty,
  treeNodeSize,
  VALUE_STOPS,
  valueColour,
} from "@/lib/graph/tree-layout";

/** Every id under `id` (not `id` itself). */
function subtree(tree: TreeSearchView, id: string): string[] {
  const out: string[] = [];
  const stack = [...tree.nodes.get(id)!.children];
  while (stack.length > 0) {
    const next = stack.pop()!;
    out.push(next);
    stack.push(...tree.nodes.get(next)!.children);
  }
  return out;
}

/** The first node (creation order) with at least `min` descendants and a parent. */
function innerNode(tree: TreeSearchView, min: number): string {
  const id = tree.order.find((candidate) => candidate !== TREE_ROOT_ID && subtree(tree, candidate).length >= min);
  if (!id) throw new Error("the fixture tree has no such node");
  return id;
}

const tree = stressTree({ nodes: 120, seed: 3 });

describe("layoutTree", () => {
  it("places every node of an uncollapsed tree, each child below its parent, and one edge per child", () => {
    const layout = layoutTree(tree);
    expect(layout.nodes.map((node) => node.id)).toEqual(tree.order);
    expect(layout.total).toBe(120);
    const byId = new Map(layout.nodes.map((node) => [node.id, node]));
    for (const placed of layout.nodes) {
      if (placed.node.parent === null) continue;
      const parent = byId.get(placed.node.parent)!;
      expect(placed.y).toBeGreaterThanOrEqual(parent.y + parent.height);
    }
    expect(layout.edges).toHaveLength(119);
    expect(new Set(layout.edges.map((edge) => `${edge.source}>${edge.target}`))).toEqual(new Set(layout.nodes.filter((node) => node.node.parent).map((node) => `${node.node.parent}>${node.id}`)));
  });

  it("puts siblings left to right in creation order", () => {
    const byId = new Map(layoutTree(tree).nodes.map((node) => [node.id, node]));
    let families = 0;
    for (const node of tree.nodes.values()) {
      if (node.children.length < 2) continue;
      families += 1;
      const xs = node.children.map((id) => byId.get(id)!.x);
      expect(xs).toEqual([...xs].sort((a, b) => a - b));
    }
    expect(families).toBeGreaterThan(10);
  });

  it("keeps nodes of one depth on one row without overlaps", () => {
    const layout = layoutTree(tree);
    const rows = new Map<number, typeof layout.nodes>();
    for (const node of layout.nodes) rows.set(node.node.depth, [...(rows.get(node.node.depth) ?? []), node]);
    for (const row of rows.values()) {
      // Centred on one line (to the pixel: positions are rounded).
      const centres = row.map((node) => node.y + node.height / 2);
      expect(Math.max(...centres) - Math.min(...centres)).toBeLessThanOrEqual(1);
      const sorted = [...row].sort((a, b) => a.x - b.x);
      for (let at = 1; at < sorted.length; at += 1) expect(sorted[at]!.x).toBeGreaterThanOrEqual(sorted[at - 1]!.x + sorted[at - 1]!.width);
    }
  });

  it("hides exactly the subtree of a collapsed node and counts it on the node", () => {
    const collapsedId = innerNode(tree, 4);
    const hidden = subtree(tree, collapsedId);
    const layout = layoutTree(tree, { collapsed: new Set([collapsedId]) });
    const drawn = new Set(layout.nodes.map((node) => node.id));
    expect([...drawn].sort()).toEqual(tree.order.filter((id) => !hidden.includes(id)).sort());
    const collapsed = layout.nodes.find((node) => node.id === collapsedId)!;
    expect(collapsed.collapsed).toBe(true);
    expect(collapsed.hiddenCount).toBe(hidden.length);
    expect(layout.nodes.filter((node) => node.id !== collapsedId).every((node) => !node.collapsed && node.hiddenCount === 0)).toBe(true);
    for (const edge of layout.edges) {
      expect(drawn.has(edge.source)).toBe(true);
      expect(drawn.has(edge.target)).toBe(true);
    }
    expect(layout.edges).toHaveLength(layout.nodes.length - 1);
  });

  it("nests collapses: collapsing an ancestor of a collapsed node hides both subtrees, and a leaf cannot collapse", () => {
    const outer = innerNode(tree, 6);
    const inner = subtree(tree, outer).find((id) => subtree(tree, id).length > 0)!;
    const leaf = tree.order.find((id) => tree.nodes.get(id)!.children.length === 0)!;
    const layout = layoutTree(tree, { collapsed: new Set([outer, inner, leaf, "no-such-node"]) });
    expect(layout.nodes).toHaveLength(tree.nodes.size - subtree(tree, outer).length);
    expect(layout.nodes.find((node) => node.id === leaf)?.collapsed).toBe(false);
  });

  it("marks exactly the highlighted path's nodes and the edges between them", () => {
    const deepest = tree.order.reduce((best, id) => (tree.nodes.get(id)!.depth > tree.nodes.get(best)!.depth ? id : best));
    const path = pathTo(tree, deepest);
    expect(path.length).toBeGreaterThan(3);
    const layout = layoutTree(tree, { highlight: path });
    expect(layout.nodes.filter((node) => node.highlighted).map((node) => node.id).sort()).toEqual([...path].sort());
    const expected = path.slice(1).map((id, at) => `${path[at]}->${id}`);
    expect(layout.edges.filter((edge) => edge.highlighted).map((edge) => edge.id).sort()).toEqual(expected.sort());
  });
});

describe("valueColour", () => {
  it("has the scale's end colours at 0 and 1, clamps outside 0–1, and grey for no value", () => {
    expect(valueColour(0)).toBe(VALUE_STOPS[0]![1]);
    expect(valueColour(1)).toBe(VALUE_STOPS[VALUE_STOPS.length - 1]![1]);
    expect(valueColour(0.5)).toBe("#eab308");
    expect(valueColour(-3)).toBe(valueColour(0));
    expect(valueColour(7)).toBe(valueColour(1));
    expect(valueColour(null)).toBe(NO_VALUE_COLOUR);
    expect(valueColour(Number.NaN)).toBe(NO_VALUE_COLOUR);
  });

  it("moves from red towards green as the value rises", () => {
    const channels = (colour: string) => [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16));
    const [r1, g1] = channels(valueColour(0.1));
    const [r9, g9] = channels(valueColour(0.9));
    expect(r1).toBeGreaterThan(r9!);
    expect(g9).toBeGreaterThan(g1!);
  });
});

describe("treeNodeSize", () => {
  it("grows with visits from the smallest size and stops at the largest", () => {
    expect(treeNodeSize(0)).toEqual(TREE_NODE_MIN);
    expect(treeNodeSize(TREE_VISITS_FOR_MAX)).toEqual(TREE_NODE_MAX);
    expect(treeNodeSize(TREE_VISITS_FOR_MAX * 50)).toEqual(TREE_NODE_MAX);
    expect(treeNodeSize(3).width).toBeGreaterThan(treeNodeSize(1).width);
  });

  it("sizes each placed node by its visits", () => {
    for (const node of layoutTree(tree).nodes) expect({ width: node.width, height: node.height }).toEqual(treeNodeSize(node.node.visits));
  });
});

describe("createTreeLayouter", () => {
  it("runs dagre again only when the drawn tree changes", () => {
    const layouter = createTreeLayouter();
    const first = layouter(tree);
    expect(layouter.layouts).toBe(1);
    const path = tree.iterations.at(-1)!.path;
    expect(layouter(tree, { collapsed: new Set() })).toBe(first);
    const highlighted = layouter(tree, { highlight: path });
    expect(layouter.layouts).toBe(1);
    // Positions and the nodes off the path are reused as they were.
    const offPath = first.nodes.find((node) => !path.includes(node.id))!;
    expect(highlighted.nodes.find((node) => node.id === offPath.id)).toBe(offPath);
    layouter(tree, { collapsed: new Set([innerNode(tree, 2)]) });
    expect(layouter.layouts).toBe(2);
  });

  it("lays out again when the fold grows the tree in place, not when only a value changes", () => {
    const grown = stressTree({ nodes: 40, seed: 9 });
    const layouter = createTreeLayouter();
    const before = layouter(grown);
    const leaf = [...grown.nodes.values()].find((node) => node.children.length === 0 && node.visits === 0)!;
    leaf.value = 0.93;
    const revalued = layouter(grown);
    expect(layouter.layouts).toBe(1);
    expect(revalued).not.toBe(before);
    expect(revalued.nodes.find((node) => node.id === leaf.id)!.colour).toBe(valueColour(0.93));
    const child = { ...leaf, id: "t99.e1", parent: leaf.id, depth: leaf.depth + 1, children: [] };
    grown.nodes.set(child.id, child);
    grown.order.push(child.id);
    leaf.children.push(child.id);
    const after = layouter(grown);
    expect(layouter.layouts).toBe(2);
    expect(after.nodes.map((node) => node.id)).toContain("t99.e1");
  });
});

describe("treeIsEmpty", () => {
  it("is true for the root alone and false once it has children", () => {
    expect(treeIsEmpty(emptyTree())).toBe(true);
    expect(treeIsEmpty(stressTree({ nodes: 1 }))).toBe(true);
    expect(treeIsEmpty(tree)).toBe(false);
  });
});
