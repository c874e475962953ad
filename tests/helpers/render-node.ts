import { ReactFlowProvider, type NodeTypes } from "@xyflow/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RunGraphViewNode } from "@/lib/graph";
import { RunUiStoreProvider } from "@/lib/store";
import { nodeTypes } from "@/components/run-graph/run-graph";
import { AnnotationCountsContext } from "@/components/run-graph/graph-context";

/**
 * Server-rendered markup (no DOM) of a run graph node's component, given the
 * props React Flow gives it, inside the providers the run page sets up.
 *
 * `notes`: people's note counts by node id, as the page's RunGraph provides them (the badge).
 * @throws when no component is registered for the node's type.
 */
export function renderGraphNode(node: RunGraphViewNode, notes: ReadonlyMap<string, number> = new Map()): string {
  const component = (nodeTypes as NodeTypes)[node.type];
  if (!component) throw new Error(`no component for ${node.type}`);
  const props = staticNodeProps({ id: node.id, type: node.type, data: node.data, width: node.width, height: node.height, x: node.position.x, y: node.position.y });
  return renderToStaticMarkup(
    createElement(AnnotationCountsContext.Provider, { value: notes }, createElement(RunUiStoreProvider, null, createElement(ReactFlowProvider, null, createElement(component, props)))),
  );
}

/**
 * The props React Flow gives a node component, for a node that is not being dragged, selected or
 * connected (what a static render of one node needs).
 */
export function staticNodeProps<Data, Type extends string>(node: { id: string; type: Type; data: Data; width?: number; height?: number; x?: number; y?: number }) {
  return {
    id: node.id,
    type: node.type,
    data: node.data,
    width: node.width,
    height: node.height,
    dragging: false,
    zIndex: 0,
    selectable: false,
    deletable: false,
    selected: false,
    draggable: false,
    isConnectable: false,
    positionAbsoluteX: node.x ?? 0,
    positionAbsoluteY: node.y ?? 0,
  };
}
