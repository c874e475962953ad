import { describe, expect, it } from "vitest";
import type { TreeSearchView } from "@/lib/domain/tree-search";
import { stressTree } from "@/lib/graph/stress-tree";
import { createTreeLayouter, layoutTree, type TreeLayout, type TreeLayoutEngine } from "@/lib/graph/tree-layout";
import { TREE_DAGRE_MAX_NODES } from "@/lib/graph/tree-tidy-layout";

/** The properties the tree view relies on, whichever engine placed the nodes. */
function expectTreeProperties(tree: TreeSearchView, layout: TreeLayout): void {
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  expect(layout.nodes.map((node) => node.id)).toEqual(tree.order);
  // Children below their parent.
  for (const placed of layout.nodes) {
    if (placed.node.parent === null) continue;
    const parent = byId.get(placed.node.parent)!;
    expect(placed.y).toBeGreaterThanOrEqual(parent.y + parent.height);
  }
  // Siblings left to right in creation order.
  for (const node of tree.nodes.values()) {
    const xs = node.children.map((id) => byId.get(id)!.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  }
  // One row per depth, on one centre line, without overlaps.
  const rows = new Map<number, TreeLayout["nodes"]>();
  for (const node of layout.nodes) rows.set(node.node.depth, [...(rows.get(node.node.depth) ?? []), node]);
  for (const row of rows.values()) {
    const centres = row.map((node) => node.y + node.height / 2);
    expect(Math.max(...centres) - Math.min(...centres)).toBeLessThanOrEqual(1);
    const sorted = [...row].sort((a, b) => a.x - b.x);
    for (let at = 1; at < sorted.length; at += 1) expect(sorted[at]!.x).toBeGreaterThanOrEqual(sorted[at - 1]!.x + sorted[at - 1]!.width);
  }
  // The bounding box holds every node.
  for (const node of layout.nodes) {
    expect(node.x).toBeGreaterThanOrEqual(0);
    expect(node.x + node.width).toBeLessThanOrEqual(layout.width);
    expect(node.y + node.height).toBeLessThanOrEqual(layout.height);
  }
}

describe("the closed-form tree layout", () => {
  it.each(["dagre", "tidy"] as TreeLayoutEngine[])("keeps the view's properties on a 300-node tree (%s)", (engine) => {
    const tree = stressTree({ nodes: 300, seed: 4 });
    expectTreeProperties(tree, layoutTree(tree, { engine }));
  });

  it("puts each parent between its first and last child", () => {
    const tree = stressTree({ nodes: 300, seed: 4 });
    const layout = layoutTree(tree, { engine: "tidy" });
    const byId = new Map(layout.nodes.map((node) => [node.id, node]));
    const centre = (id: string) => byId.get(id)!.x + byId.get(id)!.width / 2;
    let parents = 0;
    for (const node of tree.nodes.values()) {
      if (node.children.length === 0) continue;
      parents += 1;
      expect(centre(node.id)).toBeGreaterThanOrEqual(centre(node.children[0]!) - 1);
      expect(centre(node.id)).toBeLessThanOrEqual(centre(node.children.at(-1)!) + 1);
    }
    expect(parents).toBeGreaterThan(50);
  });

  it("lays out a 25,000-node tree with the same properties, in one pass, and uses it by default above the threshold", () => {
    const tree = stressTree({ nodes: 25_000, seed: 1 });
    expect(tree.nodes.size).toBe(25_000);
    const layouter = createTreeLayouter();
    const layout = layouter(tree);
    expectTreeProperties(tree, layout);
    expect(layouter.layouts).toBe(1);
    // Collapsing a subtree re-lays out only what is drawn; below the threshold dagre is back.
    const small = stressTree({ nodes: TREE_DAGRE_MAX_NODES, seed: 1 });
    expect(layoutTree(small).nodes).toEqual(layoutTree(small, { engine: "dagre" }).nodes);
    expect(layoutTree(tree).nodes.slice(0, 50)).toEqual(layoutTree(tree, { engine: "tidy" }).nodes.slice(0, 50));
  });
});
