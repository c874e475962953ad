import { Position, type NodeHandle } from "@xyflow/react";
import { HANDLES, type RunGraphViewNode } from "@/lib/graph";

/**
 * Graph nodes as React Flow gets them: with their handles declared up front
 * (`node.handles`). React Flow then knows every handle before it has measured a
 * node, so with `onlyRenderVisibleElements` it never mounts off-screen nodes
 * just to measure them, and edges are drawn in the first frame. Once a node is
 * mounted React Flow measures its real handles, which sit at the same places.
 */

/** Side of the square handles, as `.run-graph .react-flow__handle` in app/globals.css draws them. */
const HANDLE_SIZE = 6;
const HALF = HANDLE_SIZE / 2;

/** A view node with its handles declared; a lane background is hidden from assistive technology (`domAttributes`). */
export type FlowViewNode = RunGraphViewNode & { handles: NodeHandle[]; domAttributes?: { "aria-hidden": true } };

type Side = "top" | "bottom" | "left" | "right";

function handle(id: string, type: "source" | "target", side: Side, width: number, height: number): NodeHandle {
  // React Flow centres each handle on the middle of its side (translate(-50%, ±50%)).
  const at: Record<Side, { x: number; y: number; position: Position }> = {
    top: { x: width / 2 - HALF, y: -HALF, position: Position.Top },
    bottom: { x: width / 2 - HALF, y: height - HALF, position: Position.Bottom },
    left: { x: -HALF, y: height / 2 - HALF, position: Position.Left },
    right: { x: width - HALF, y: height / 2 - HALF, position: Position.Right },
  };
  const { x, y, position } = at[side];
  return { id, type, position, x, y, width: HANDLE_SIZE, height: HANDLE_SIZE };
}

/** The handles each node component renders (see nodes/*.tsx): same ids, types and sides. */
function handlesOf(node: RunGraphViewNode): NodeHandle[] {
  const { width, height } = node;
  const previous = handle(HANDLES.previous, "target", "top", width, height);
  const next = handle(HANDLES.next, "source", "bottom", width, height);
  switch (node.type) {
    case "lane":
      return [];
    case "trial":
      return [handle(HANDLES.memoryIn, "target", "left", width, height), next];
    case "trial-group":
      return [handle(HANDLES.memoryIn, "target", "left", width, height), handle(HANDLES.memoryOut, "source", "right", width, height)];
    case "reflection":
      return [previous, handle(HANDLES.memoryOut, "source", "right", width, height)];
    case "live-call":
      return node.data.role === "actor" ? [previous, next] : [previous];
    default:
      return [previous, next];
  }
}

const cache = new WeakMap<RunGraphViewNode, FlowViewNode>();

/** The node with its handles; the same object for the same node (nodes are reused by lib/graph while unchanged). */
export function toFlowNode(node: RunGraphViewNode): FlowViewNode {
  let flowNode = cache.get(node);
  if (!flowNode) {
    // A lane is the coloured background of a trial's column: decoration, so no name and no place in the accessibility tree
    // (React Flow would give its div an aria-label without a role, which ARIA does not allow).
    flowNode = node.type === "lane" ? { ...node, handles: handlesOf(node), domAttributes: { "aria-hidden": true } } : { ...node, handles: handlesOf(node) };
    cache.set(node, flowNode);
  }
  return flowNode;
}
