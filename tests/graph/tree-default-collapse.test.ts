import { describe, expect, it } from "vitest";
import { stressTree } from "@/lib/graph/stress-tree";
import { defaultCollapsedTreeNodes, TREE_OPEN_BUDGET } from "@/lib/graph/tree-default-collapse";
import { layoutTree } from "@/lib/graph/tree-layout";

describe("a large search tree opens with its deep subtrees collapsed", () => {
  it("collapses nothing in a tree within the budget", () => {
    expect(defaultCollapsedTreeNodes(stressTree({ nodes: TREE_OPEN_BUDGET, seed: 2 })).size).toBe(0);
  });

  it("draws at most the budget of a 25,000-node tree, plus the latest iteration's path open to its end", () => {
    const tree = stressTree({ nodes: 25_000, seed: 1 });
    const path = tree.iterations.at(-1)!.path;
    const collapsed = defaultCollapsedTreeNodes(tree, path);
    expect(collapsed.size).toBeGreaterThan(0);
    const layout = layoutTree(tree, { collapsed });
    const drawn = new Set(layout.nodes.map((node) => node.id));
    // Every node of the path is drawn, and none of them is collapsed.
    for (const id of path) {
      expect(drawn.has(id)).toBe(true);
      expect(collapsed.has(id)).toBe(false);
    }
    // The budget, plus the path's side branches (one level each).
    const sideBranches = path.reduce((sum, id) => sum + tree.nodes.get(id)!.children.length, 0);
    expect(layout.nodes.length).toBeLessThanOrEqual(TREE_OPEN_BUDGET + sideBranches + path.length);
    expect(layout.nodes.length).toBeGreaterThan(TREE_OPEN_BUDGET / 4);
    // What is hidden is counted on the collapsed nodes: drawn + hidden = the whole tree.
    const hidden = layout.nodes.reduce((sum, node) => sum + node.hiddenCount, 0);
    expect(layout.nodes.length + hidden).toBe(25_000);
  });
});
