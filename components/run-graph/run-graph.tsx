"use client";

import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  type NodeMouseHandler,
  type NodeTypes,
} from "@xyflow/react";
import { useCallback, useEffect, useRef, type KeyboardEvent } from "react";
import type { RunGraph as RunGraphModel, RunGraphEdge, RunGraphNode } from "@/lib/graph";
import { useRunUiStore } from "@/lib/store";
import { LiveCallNode } from "./nodes/live-call-node";
import { ActionNode, ObservationNode, ThoughtNode } from "./nodes/step-nodes";
import { CallErrorNode, EvaluationNode, ReflectionNode } from "./nodes/outcome-nodes";
import { LaneBackgroundNode, TrialLaneNode } from "./nodes/trial-lane-node";

/** Module-level so React Flow never sees a new object (it warns and remounts every node otherwise). */
const nodeTypes = {
  lane: LaneBackgroundNode,
  trial: TrialLaneNode,
  thought: ThoughtNode,
  action: ActionNode,
  observation: ObservationNode,
  evaluation: EvaluationNode,
  reflection: ReflectionNode,
  "call-error": CallErrorNode,
  "live-call": LiveCallNode,
} satisfies NodeTypes;

const PRO_OPTIONS = { hideAttribution: false } as const;
const FIT_PADDING = 40;
const MINIMAP_STYLE = { width: 150, height: 110 } as const;

const MINIMAP_COLOURS: Record<RunGraphNode["type"], string> = {
  lane: "#e2e8f0",
  trial: "#0f172a",
  thought: "#8b5cf6",
  action: "#0284c7",
  observation: "#0d9488",
  evaluation: "#16a34a",
  reflection: "#f59e0b",
  "call-error": "#dc2626",
  "live-call": "#38bdf8",
};

function minimapColour(node: RunGraphNode): string {
  if (node.type === "evaluation" && node.data.code?.falsePositive) return "#f59e0b";
  if (node.type === "evaluation" && node.data.verdict === "fail") return "#dc2626";
  if (node.type === "action" && node.data.invalid) return "#dc2626";
  return MINIMAP_COLOURS[node.type];
}

/** Bounding box of the laid-out nodes (positions and sizes are fixed by lib/graph, no measuring needed). */
function boundsOf(nodes: readonly RunGraphNode[]) {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const node of nodes) {
    minX = Math.min(minX, node.position.x);
    minY = Math.min(minY, node.position.y);
    maxX = Math.max(maxX, node.position.x + node.width);
    maxY = Math.max(maxY, node.position.y + node.height);
  }
  return { minX, minY, maxX, maxY };
}

/**
 * First view: the whole graph when it fits at a readable zoom; otherwise its
 * top (where trials start) at the smallest readable zoom, horizontally centred.
 */
function useInitialViewport(nodes: readonly RunGraphNode[]) {
  const { setViewport } = useReactFlow<RunGraphNode, RunGraphEdge>();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  const done = useRef(false);

  useEffect(() => {
    if (done.current || nodes.length === 0 || width === 0 || height === 0) return;
    done.current = true;
    const { minX, minY, maxX, maxY } = boundsOf(nodes);
    const graphWidth = maxX - minX + 2 * FIT_PADDING;
    const graphHeight = maxY - minY + 2 * FIT_PADDING;
    const zoom = Math.max(0.7, Math.min(1, width / graphWidth, height / graphHeight));
    const x = graphWidth * zoom < width ? (width - (maxX - minX) * zoom) / 2 - minX * zoom : FIT_PADDING - minX * zoom;
    const y = graphHeight * zoom < height ? (height - (maxY - minY) * zoom) / 2 - minY * zoom : FIT_PADDING - minY * zoom;
    void setViewport({ x, y, zoom });
  }, [nodes, width, height, setViewport]);
}

/** While following, pans (keeping the zoom) to the newest node whenever one is added. */
function useFollowNewest(nodes: readonly RunGraphNode[], enabled: boolean) {
  const { setCenter, getZoom } = useReactFlow<RunGraphNode, RunGraphEdge>();
  const lastCount = useRef<number | null>(null);

  useEffect(() => {
    const count = nodes.length;
    const previous = lastCount.current;
    lastCount.current = count;
    if (!enabled || previous === null || count <= previous) return;
    let newest: RunGraphNode | undefined;
    for (let index = nodes.length - 1; index >= 0; index -= 1) {
      const candidate = nodes[index];
      if (candidate && candidate.type !== "lane") {
        newest = candidate;
        break;
      }
    }
    if (!newest) return;
    void setCenter(newest.position.x + newest.width / 2, newest.position.y + newest.height / 2, { zoom: getZoom(), duration: 300 });
  }, [nodes, enabled, setCenter, getZoom]);
}

function RunGraphCanvas({ graph, live }: { graph: RunGraphModel; live: boolean }) {
  const selectNode = useRunUiStore((state) => state.selectNode);
  const closeInspector = useRunUiStore((state) => state.closeInspector);
  const followLive = useRunUiStore((state) => state.followLive);
  const setFollowLive = useRunUiStore((state) => state.setFollowLive);

  useInitialViewport(graph.nodes);
  useFollowNewest(graph.nodes, followLive && live);

  const onNodeClick: NodeMouseHandler<RunGraphNode> = useCallback(
    (_event, node) => {
      if (node.type !== "lane") selectNode(node.id);
    },
    [selectNode],
  );

  // Nodes are focusable (Tab); Enter or Space on a focused node selects it, Escape closes the inspector.
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target;
      if (!(target instanceof HTMLElement)) return;
      if (event.key === "Escape") {
        closeInspector();
        return;
      }
      if (event.key !== "Enter" && event.key !== " ") return;
      if (!target.classList.contains("react-flow__node")) return;
      const id = target.dataset.id;
      if (!id || target.classList.contains("react-flow__node-lane")) return;
      event.preventDefault();
      selectNode(id);
    },
    [selectNode, closeInspector],
  );

  const onMoveStart = useCallback(
    (event: MouseEvent | TouchEvent | null) => {
      // A user pan/zoom (not our own setCenter) stops following.
      if (event && followLive) setFollowLive(false);
    },
    [followLive, setFollowLive],
  );

  return (
    <ReactFlow<RunGraphNode, RunGraphEdge>
      className="run-graph"
      nodes={graph.nodes}
      edges={graph.edges}
      nodeTypes={nodeTypes}
      onNodeClick={onNodeClick}
      onPaneClick={closeInspector}
      onKeyDown={onKeyDown}
      onMoveStart={onMoveStart}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable
      edgesFocusable={false}
      deleteKeyCode={null}
      selectionKeyCode={null}
      multiSelectionKeyCode={null}
      minZoom={0.15}
      maxZoom={1.75}
      proOptions={PRO_OPTIONS}
      aria-label="Run graph: one column per trial"
    >
      <Background variant={BackgroundVariant.Dots} gap={18} size={1} color="#cbd5e1" />
      <Controls showInteractive={false} position="bottom-left" />
      <MiniMap<RunGraphNode> pannable zoomable nodeColor={minimapColour} nodeStrokeWidth={0} position="bottom-right" ariaLabel="Mini map" style={MINIMAP_STYLE} />
      {live ? (
        <Panel position="top-right">
          <label className="flex items-center gap-2 rounded-md border border-slate-200 bg-white/95 px-2.5 py-1.5 text-xs text-slate-700 shadow-sm">
            <input
              type="checkbox"
              className="switch"
              role="switch"
              checked={followLive}
              onChange={(event) => setFollowLive(event.target.checked)}
              data-testid="follow-live"
            />
            Follow new steps
          </label>
        </Panel>
      ) : null}
    </ReactFlow>
  );
}

/**
 * The run as a graph: one lane per trial (header, thought → action →
 * observation per step, evaluation, reflection) and memory edges into the next
 * trial; the model call in flight is a `live-call` node whose text streams in.
 * `graph` comes from lib/graph's memoising deriver, so node objects are
 * stable and React Flow only touches what changed.
 */
export function RunGraph({ graph, live }: { graph: RunGraphModel; live: boolean }) {
  return (
    <ReactFlowProvider>
      <RunGraphCanvas graph={graph} live={live} />
    </ReactFlowProvider>
  );
}
