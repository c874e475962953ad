import { ReactFlowProvider, type NodeTypes } from "@xyflow/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RunGraphViewNode } from "@/lib/graph";
import { RunUiStoreProvider } from "@/lib/store";
import { nodeTypes } from "@/components/run-graph/run-graph";

/**
 * Server-rendered markup (no DOM) of a run graph node's component, given the
 * props React Flow gives it, inside the providers the run page sets up.
 *
 * @throws when no component is registered for the node's type.
 */
export function renderGraphNode(node: RunGraphViewNode): string {
  const component = (nodeTypes as NodeTypes)[node.type];
  if (!component) throw new Error(`no component for ${node.type}`);
  const props = {
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
    positionAbsoluteX: node.position.x,
    positionAbsoluteY: node.position.y,
  };
  return renderToStaticMarkup(createElement(RunUiStoreProvider, null, createElement(ReactFlowProvider, null, createElement(component, props))));
}
