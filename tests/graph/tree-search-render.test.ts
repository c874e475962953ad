import { ReactFlowProvider } from "@xyflow/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { emptyTree } from "@/lib/domain/tree-search";
import { stressTree } from "@/lib/graph/stress-tree";
import { layoutTree, type TreeLayoutNode } from "@/lib/graph/tree-layout";
import { SearchTreePanel, TreeLegend, TreeNodeDetails } from "@/components/tree-search";
import { toTreeFlowNode, treeNodeLabel } from "@/components/tree-search/tree-flow";
import { SearchTreeNode } from "@/components/tree-search/tree-node";
import { staticNodeProps } from "../helpers/render-node";

/** Markup of the search tree's node component, details panel, legend and empty state (server-rendered, no DOM). */

const tree = stressTree({ nodes: 200, seed: 4 });

function renderNode(placed: TreeLayoutNode, selected = false): string {
  const flow = toTreeFlowNode(placed, selected);
  const props = staticNodeProps({ id: flow.id, type: "tree" as const, data: flow.data, width: flow.width, height: flow.height, x: flow.position.x, y: flow.position.y });
  return renderToStaticMarkup(createElement(ReactFlowProvider, null, createElement(SearchTreeNode, props as never))).replace(/<!-- -->/g, "");
}

/** `id:type:position` of each handle in the markup. */
function renderedHandles(html: string): string[] {
  return [...html.matchAll(/<div data-handleid="([^"]+)" data-handlepos="([^"]+)"[^>]*class="[^"]*\b(source|target)\b/g)].map((match) => `${match[1]}:${match[3]}:${match[2]}`).sort();
}

describe("a search tree node", () => {
  const failed = [...tree.nodes.values()].find((node) => node.terminal?.outcome === "failure" && node.reflection !== null && node.value !== null)!;
  const withSubtree = tree.order.find((id) => id !== "root" && tree.nodes.get(id)!.children.length > 0)!;
  const layout = layoutTree(tree, { collapsed: new Set([withSubtree]) });
  const placedFailed = layout.nodes.find((node) => node.id === failed.id) ?? layoutTree(tree).nodes.find((node) => node.id === failed.id)!;

  it("shows the action, the value to 2 decimals, the visits, the verdict and a reflection badge", () => {
    const html = renderNode(placedFailed);
    expect(html).toContain(failed.actionText.replace(/'/g, "&#x27;"));
    expect(html).toContain(`>${failed.value!.toFixed(2)}<`);
    expect(html).toContain(`>N=${failed.visits}<`);
    expect(html).toContain('data-outcome="failure"');
    expect(html).toContain('data-testid="tree-reflection-badge"');
    expect(html).toContain(`border-left-color:${placedFailed.colour}`);
  });

  it("a collapsed node says how many nodes it hides; a leaf has no toggle", () => {
    const collapsed = layout.nodes.find((node) => node.id === withSubtree)!;
    const html = renderNode(collapsed);
    expect(html).toContain(`>+${collapsed.hiddenCount} hidden<`);
    expect(html).toContain('aria-expanded="false"');
    const leaf = layout.nodes.find((node) => node.node.children.length === 0)!;
    expect(renderNode(leaf)).not.toContain("tree-collapse");
  });

  it("declares to React Flow exactly the handles it renders", () => {
    for (const placed of layout.nodes.slice(0, 20)) {
      const declared = toTreeFlowNode(placed, false).handles!.map((handle) => `${handle.id}:${handle.type}:${handle.position}`).sort();
      expect(renderedHandles(renderNode(placed))).toEqual(declared);
    }
  });

  it("reuses one flow node object per placed node and selection, and marks the selected one", () => {
    const placed = layout.nodes[3]!;
    expect(toTreeFlowNode(placed, false)).toBe(toTreeFlowNode(placed, false));
    expect(toTreeFlowNode(placed, true)).not.toBe(toTreeFlowNode(placed, false));
    expect(renderNode(placed, true)).toContain('data-selected="true"');
    expect(treeNodeLabel(placed)).toContain(`visits ${placed.node.visits}`);
  });
});

describe("TreeNodeDetails", () => {
  it("shows thought, action, observation, estimate, value, visits, verdict and reflection of the node", () => {
    const node = [...tree.nodes.values()].find((candidate) => candidate.terminal && candidate.reflection && candidate.estimate !== null)!;
    const html = renderToStaticMarkup(createElement(TreeNodeDetails, { node }));
    const text = html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");
    expect(text).toContain(node.thought);
    expect(text).toContain(node.actionText);
    expect(text).toContain(node.observation);
    expect(text).toContain(node.estimate!.toFixed(2));
    expect(text).toContain(node.value!.toFixed(2));
    expect(text).toMatch(new RegExp(`Visits N</dt><dd[^>]*><span[^>]*>${node.visits}<`));
    expect(text).toContain(`data-outcome="${node.terminal!.outcome}"`);
    expect(text).toContain(node.reflection!.text);
  });

  it("without a node, says how to select one", () => {
    expect(renderToStaticMarkup(createElement(TreeNodeDetails, { node: null }))).toContain("Select a node");
  });
});

describe("SearchTreePanel", () => {
  it("with only the root, shows the empty state and no tree", () => {
    const html = renderToStaticMarkup(createElement(SearchTreePanel, { tree: emptyTree() }));
    expect(html).toContain("The search has not expanded the root yet.");
    expect(html).not.toContain("react-flow");
  });

  it("the legend explains colour, size and the highlighted path", () => {
    const html = renderToStaticMarkup(createElement(TreeLegend));
    expect(html).toMatch(/value V/);
    expect(html).toMatch(/visits N/);
    expect(html).toMatch(/highlighted path/);
  });
});
