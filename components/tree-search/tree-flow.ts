import { Position, type Edge, type Node, type NodeHandle } from "@xyflow/react";
import type { TreeLayoutEdge, TreeLayoutNode } from "@/lib/graph/tree-layout";

/**
 * Search-tree layout nodes and edges as React Flow gets them. Handles are declared up front
 * (as components/run-graph/flow-nodes.ts does), so with `onlyRenderVisibleElements` React Flow
 * never mounts an off-screen node just to measure it. Objects are cached per layout object (and
 * selection), so an unchanged node is the same object and React Flow skips it.
 */

/** What the tree node component receives. */
export interface TreeFlowNodeData extends Record<string, unknown> {
  placed: TreeLayoutNode;
  selected: boolean;
}

/** A tree node for React Flow. */
export type TreeFlowNode = Node<TreeFlowNodeData, "tree">;
/** A parent → child edge for React Flow. */
export type TreeFlowEdge = Edge;

/** Handle ids: the parent edge comes in at the top, child edges leave at the bottom. */
export const TREE_HANDLES = { parent: "parent", children: "children" } as const;

const HANDLE_SIZE = 6;
const HALF = HANDLE_SIZE / 2;

function handles(width: number, height: number): NodeHandle[] {
  return [
    { id: TREE_HANDLES.parent, type: "target", position: Position.Top, x: width / 2 - HALF, y: -HALF, width: HANDLE_SIZE, height: HANDLE_SIZE },
    { id: TREE_HANDLES.children, type: "source", position: Position.Bottom, x: width / 2 - HALF, y: height - HALF, width: HANDLE_SIZE, height: HANDLE_SIZE },
  ];
}

const nodeCache = new WeakMap<TreeLayoutNode, { plain?: TreeFlowNode; selected?: TreeFlowNode }>();

/** The React Flow node of a placed tree node; the same object for the same placed node and selection. */
export function toTreeFlowNode(placed: TreeLayoutNode, selected: boolean): TreeFlowNode {
  let entry = nodeCache.get(placed);
  if (!entry) {
    entry = {};
    nodeCache.set(placed, entry);
  }
  const key = selected ? "selected" : "plain";
  let node = entry[key];
  if (!node) {
    node = {
      id: placed.id,
      type: "tree",
      position: { x: placed.x, y: placed.y },
      width: placed.width,
      height: placed.height,
      data: { placed, selected },
      handles: handles(placed.width, placed.height),
      ariaLabel: treeNodeLabel(placed),
    };
    entry[key] = node;
  }
  return node;
}

const edgeCache = new WeakMap<TreeLayoutEdge, TreeFlowEdge>();

/** The React Flow edge of a layout edge (`tree-edge`, plus `tree-edge-path` on the highlighted path). */
export function toTreeFlowEdge(edge: TreeLayoutEdge): TreeFlowEdge {
  let flowEdge = edgeCache.get(edge);
  if (!flowEdge) {
    flowEdge = {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: TREE_HANDLES.children,
      targetHandle: TREE_HANDLES.parent,
      type: "smoothstep",
      className: edge.highlighted ? "tree-edge tree-edge-path" : "tree-edge",
      focusable: false,
      selectable: false,
    };
    edgeCache.set(edge, flowEdge);
  }
  return flowEdge;
}

/** Two decimals, or "–" for no value. */
export function formatValue(value: number | null): string {
  return value === null ? "–" : value.toFixed(2);
}

/** What a screen reader hears for a node: its action, value, visits, verdict, and what is hidden under it. */
export function treeNodeLabel(placed: TreeLayoutNode): string {
  const { node } = placed;
  const parts = [node.parent === null ? "Root: the task" : `Step ${node.depth}: ${node.actionText || "(no action)"}`, `value ${formatValue(node.value)}`, `visits ${node.visits}`];
  if (node.terminal) parts.push(`trajectory ended: ${node.terminal.outcome}`);
  if (node.reflection) parts.push("has a reflection");
  if (placed.collapsed) parts.push(`collapsed, ${placed.hiddenCount} nodes hidden`);
  if (placed.highlighted) parts.push("on the highlighted path");
  return parts.join(", ");
}
