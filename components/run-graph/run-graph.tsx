"use client";

import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  type NodeMouseHandler,
  type NodeTypes,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore, type KeyboardEvent, type RefObject } from "react";
import type { RunGraph as RunGraphModel, RunGraphEdge, RunGraphNode, RunGraphViewNode } from "@/lib/graph";
import { useRunUiStore } from "@/lib/store";
import { useResolvedTheme } from "@/components/theme";
import { toFlowNode, type FlowViewNode } from "./flow-nodes";
import { AnnotationCountsContext, RenderModeContext, RunGraphActionsContext, type RenderMode } from "./graph-context";
import { GraphPanel } from "./graph-panel";
import { LiveCallNode } from "./nodes/live-call-node";
import { ActionNode, ObservationNode, ThoughtNode } from "./nodes/step-nodes";
import { CallErrorNode, EvaluationNode, ReflectionNode } from "./nodes/outcome-nodes";
import { RefinementNode } from "./nodes/refinement-node";
import { TrialGroupNode } from "./nodes/trial-group-node";
import { LaneBackgroundNode, TrialLaneNode } from "./nodes/trial-lane-node";
import { useTrialCollapse } from "./use-trial-collapse";
import { showsMinimap } from "./minimap-visibility";
import { usePresenterZoom } from "./use-presenter-zoom";

/** The component of each node kind. Module-level so React Flow never sees a new object (it warns and remounts every node otherwise). */
export const nodeTypes = {
  lane: LaneBackgroundNode,
  trial: TrialLaneNode,
  thought: ThoughtNode,
  action: ActionNode,
  observation: ObservationNode,
  evaluation: EvaluationNode,
  reflection: ReflectionNode,
  refinement: RefinementNode,
  "call-error": CallErrorNode,
  "live-call": LiveCallNode,
  "trial-group": TrialGroupNode,
} satisfies NodeTypes;

/**
 * Above this many drawn nodes, React Flow renders only the nodes and edges in
 * view (`onlyRenderVisibleElements`). Smaller graphs render everything, so a
 * node scrolled out of view stays in the page (and in end-to-end tests).
 */
export const VIRTUALIZE_ABOVE = 250;

/**
 * Below this zoom, node text would be under ~5 px: nodes are drawn as their
 * coloured boxes only (the `run-graph-far` class; see NodeFrame), which keeps
 * a zoomed-out 1,000-node graph cheap to paint.
 */
export const FAR_ZOOM = 0.4;

const PRO_OPTIONS = { hideAttribution: false } as const;
const FIT_PADDING = 40;
const MINIMAP_STYLE = { width: 150, height: 110 } as const;

const MINIMAP_COLOURS: Record<RunGraphViewNode["type"], string> = {
  lane: "#e2e8f0",
  trial: "#0f172a",
  thought: "#8b5cf6",
  action: "#0284c7",
  observation: "#0d9488",
  evaluation: "#16a34a",
  reflection: "#f59e0b",
  refinement: "#6366f1",
  "call-error": "#dc2626",
  "live-call": "#38bdf8",
  "trial-group": "#64748b",
};

function minimapColour(node: RunGraphViewNode): string {
  if (node.type === "evaluation" && node.data.code?.falsePositive) return "#f59e0b";
  if (node.type === "evaluation" && node.data.verdict === "fail") return "#dc2626";
  if (node.type === "action" && node.data.invalid) return "#dc2626";
  return MINIMAP_COLOURS[node.type];
}

/** Bounding box of the laid-out nodes (positions and sizes are fixed by lib/graph, no measuring needed). */
function boundsOf(nodes: readonly RunGraphViewNode[]) {
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
 * top (where trials start) at the smallest readable zoom, from the first trial
 * — or, when old trials start collapsed (`newestFirst`), ending at the newest. In presenter mode at zoom 1.
 */
function useInitialViewport(nodes: readonly RunGraphViewNode[], newestFirst: boolean, presenter: boolean) {
  const { setViewport } = useReactFlow<FlowViewNode, RunGraphEdge>();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  const done = useRef(false);

  useEffect(() => {
    if (done.current || nodes.length === 0 || width === 0 || height === 0) return;
    done.current = true;
    const { minX, minY, maxX, maxY } = boundsOf(nodes);
    const graphWidth = maxX - minX + 2 * FIT_PADDING;
    const graphHeight = maxY - minY + 2 * FIT_PADDING;
    // Presenter mode: never below 1, so its 16 px node text reads 16 px (./use-presenter-zoom.ts).
    const zoom = Math.max(presenter ? 1 : 0.7, Math.min(1, width / graphWidth, height / graphHeight));
    const x =
      graphWidth * zoom < width ? (width - (maxX - minX) * zoom) / 2 - minX * zoom : newestFirst ? width - FIT_PADDING - maxX * zoom : FIT_PADDING - minX * zoom;
    const y = graphHeight * zoom < height ? (height - (maxY - minY) * zoom) / 2 - minY * zoom : FIT_PADDING - minY * zoom;
    void setViewport({ x, y, zoom });
  }, [nodes, width, height, setViewport, newestFirst, presenter]);
}

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
/** How long a pan to a node takes, ms: none at all when the system asks for reduced motion. */
const PAN_MS = 300;

/** While following, pans (keeping the zoom) to the newest node whenever one is added. */
function useFollowNewest(nodes: readonly RunGraphNode[], enabled: boolean, reducedMotion: boolean) {
  const { setCenter, getZoom } = useReactFlow<FlowViewNode, RunGraphEdge>();
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
    void setCenter(newest.position.x + newest.width / 2, newest.position.y + newest.height / 2, { zoom: getZoom(), duration: reducedMotion ? 0 : PAN_MS });
  }, [nodes, enabled, setCenter, getZoom, reducedMotion]);
}

/** Whether the system asks for less motion (`prefers-reduced-motion: reduce`), following changes to the setting. */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener("change", onChange);
      return () => query.removeEventListener("change", onChange);
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/** Margin (screen px) a selected node must keep from the graph's edges to count as in view. */
const REVEAL_MARGIN = 24;
/** Below this zoom a revealed node is zoomed in to it (its text is readable from here). */
const REVEAL_MIN_ZOOM = 0.75;
/** The `lg` breakpoint (components/run/run-workspace.tsx): below it the graph and the inspector are separate panes. */
const NARROW_SCREEN = "(max-width: 1023.98px)";

/**
 * Whenever the selected node changes — a click, the keyboard, a `?node=` link,
 * a lesson step: anything that sets the store's `selectedNodeId` — and it is not
 * wholly in view, pans (300 ms) to centre it, keeping the zoom unless it is too
 * far out to read. A node that is not drawn yet (its trial expanding, its event
 * still arriving) is revealed as soon as it is.
 */
function useRevealSelected(nodes: readonly RunGraphViewNode[], reducedMotion: boolean) {
  const selected = useRunUiStore((state) => state.selectedNodeId);
  const { setCenter, getViewport } = useReactFlow<FlowViewNode, RunGraphEdge>();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  const revealed = useRef<string | null>(null);

  useEffect(() => {
    if (selected === null) {
      revealed.current = null;
      return;
    }
    if (revealed.current === selected || width === 0 || height === 0) return;
    const node = nodes.find((candidate) => candidate.id === selected);
    if (!node) return;
    revealed.current = selected;
    const { x, y, zoom } = getViewport();
    const left = node.position.x * zoom + x;
    const top = node.position.y * zoom + y;
    const inView =
      left >= REVEAL_MARGIN && top >= REVEAL_MARGIN && left + node.width * zoom <= width - REVEAL_MARGIN && top + node.height * zoom <= height - REVEAL_MARGIN;
    if (inView) return;
    void setCenter(node.position.x + node.width / 2, node.position.y + node.height / 2, { zoom: Math.max(zoom, REVEAL_MIN_ZOOM), duration: reducedMotion ? 0 : PAN_MS });
  }, [selected, nodes, width, height, getViewport, setCenter, reducedMotion]);
}

/**
 * After an expand or collapse, moves focus to the node that took the clicked one's place
 * (keyboard users keep their place). React Flow draws new nodes a commit or two after it is
 * given them, so this looks for the node over the next few frames.
 */
function useFocusAfterToggle(containerRef: RefObject<HTMLDivElement | null>, targetRef: RefObject<string | null>, nodes: readonly FlowViewNode[]) {
  useEffect(() => {
    const id = targetRef.current;
    if (!id) return;
    let frame = 0;
    let tries = 0;
    const attempt = () => {
      const element = containerRef.current?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
      if (element) {
        if (targetRef.current === id) targetRef.current = null;
        element.focus({ preventScroll: true });
      } else if (tries < 10) {
        tries += 1;
        frame = requestAnimationFrame(attempt);
      } else if (targetRef.current === id) {
        // Not drawn (out of view): give up rather than steal focus later.
        targetRef.current = null;
      }
    };
    attempt();
    return () => cancelAnimationFrame(frame);
  }, [containerRef, targetRef, nodes]);
}

function RunGraphCanvas({ graph, live, collapse }: { graph: RunGraphModel; live: boolean; collapse: "auto" | "off" }) {
  const selectNode = useRunUiStore((state) => state.selectNode);
  const closeInspector = useRunUiStore((state) => state.closeInspector);
  const followLive = useRunUiStore((state) => state.followLive);
  const setFollowLive = useRunUiStore((state) => state.setFollowLive);
  const setMobilePane = useRunUiStore((state) => state.setMobilePane);
  const replaying = useRunUiStore((state) => state.cursor !== null);
  const presenter = useRunUiStore((state) => state.presenter);
  const theme = useResolvedTheme();
  const containerRef = useRef<HTMLDivElement>(null);

  const { view, actions, trialCount, expandAll, collapseOld, expandedOld, focusTargetRef } = useTrialCollapse(graph, collapse);
  const nodes = useMemo(() => view.nodes.map(toFlowNode), [view.nodes]);
  const virtualize = nodes.length > VIRTUALIZE_ABOVE;
  const renderMode = useMemo<RenderMode>(() => ({ animateEntry: !virtualize }), [virtualize]);
  // One subscription for the whole graph; it changes only when the zoom crosses FAR_ZOOM.
  const far = useStore((state) => state.transform[2] < FAR_ZOOM);
  // The minimap only where it has room and something is off screen; never in presenter mode (./minimap-visibility.ts).
  const bounds = useMemo(() => (view.nodes.length === 0 ? null : boundsOf(view.nodes)), [view.nodes]);
  const minimap = useStore((state) => showsMinimap({ presenter, pane: { width: state.width, height: state.height }, transform: state.transform, bounds }));

  useInitialViewport(nodes, view.collapsed.length > 0, presenter);
  usePresenterZoom(presenter, nodes.length > 0);
  // Follows the run's own new nodes (not nodes that an expand brings back); the newest is in a trial in progress, never collapsed.
  // A replay moving forward appends nodes too: they are followed the same way.
  // Reduced motion: the graph does not pan by itself (following starts off; the switch turns it back on, with jumps instead of glides).
  const reducedMotion = useReducedMotion();
  const followOffForMotion = useRef(false);
  useEffect(() => {
    if (!reducedMotion || followOffForMotion.current) return;
    followOffForMotion.current = true;
    setFollowLive(false);
  }, [reducedMotion, setFollowLive]);
  useFollowNewest(graph.nodes, followLive && (live || replaying), reducedMotion);
  useRevealSelected(view.nodes, reducedMotion);
  useFocusAfterToggle(containerRef, focusTargetRef, nodes);

  const onNodeClick: NodeMouseHandler<FlowViewNode> = useCallback(
    (_event, node) => {
      if (node.type === "trial-group") actions.expandTrial(node.data.trial);
      else if (node.type !== "lane") {
        selectNode(node.id);
        // On a phone the inspector is its own pane: a tap on a node opens it.
        if (window.matchMedia(NARROW_SCREEN).matches) setMobilePane("details");
      }
    },
    [selectNode, actions, setMobilePane],
  );

  // Nodes are focusable (Tab); Enter or Space on a focused node selects it (a collapsed trial: expands it), Escape closes the inspector.
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
      const node = view.nodes.find((candidate) => candidate.id === id);
      if (node?.type === "trial-group") actions.expandTrial(node.data.trial);
      else selectNode(id);
    },
    [selectNode, closeInspector, actions, view.nodes],
  );

  const onMoveStart = useCallback(
    (event: MouseEvent | TouchEvent | null) => {
      // A user pan/zoom (not our own setCenter) stops following.
      if (event && followLive) setFollowLive(false);
    },
    [followLive, setFollowLive],
  );

  return (
    <RunGraphActionsContext.Provider value={actions}>
      <RenderModeContext.Provider value={renderMode}>
        <ReactFlow<FlowViewNode, RunGraphEdge>
          ref={containerRef}
          className={far ? "run-graph run-graph-far" : "run-graph"}
          nodes={nodes}
          edges={view.edges}
          nodeTypes={nodeTypes}
          onNodeClick={onNodeClick}
          onPaneClick={closeInspector}
          onKeyDown={onKeyDown}
          onMoveStart={onMoveStart}
          onlyRenderVisibleElements={virtualize}
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
          colorMode={theme}
          data-virtualized={virtualize || undefined}
        >
          <Background variant={BackgroundVariant.Dots} gap={18} size={1} color={theme === "dark" ? "#334155" : "#cbd5e1"} />
          <Controls showInteractive={false} position="bottom-left" />
          {minimap ? (
            <MiniMap<FlowViewNode> pannable zoomable nodeColor={minimapColour} nodeStrokeWidth={0} position="bottom-right" ariaLabel="Mini map" style={MINIMAP_STYLE} />
          ) : null}
          <GraphPanel
            live={live}
            trialCount={trialCount}
            collapsedCount={view.collapsed.length}
            expandedOld={expandedOld}
            onExpandAll={expandAll}
            onCollapseOld={collapseOld}
          />
        </ReactFlow>
      </RenderModeContext.Provider>
    </RunGraphActionsContext.Provider>
  );
}

/**
 * The run as a graph: one lane per trial (header, thought → action →
 * observation per step, evaluation, reflection) and memory edges into the next
 * trial; the model call in flight is a `live-call` node whose text streams in.
 * `graph` comes from lib/graph's memoising deriver, so node objects are
 * stable and React Flow only touches what changed.
 *
 * Large runs (decision 0013): trials collapse into one group node each (in a
 * long run the old ones start collapsed; `collapse="off"` starts with all
 * expanded), and above {@link VIRTUALIZE_ABOVE} drawn nodes only what is in
 * view is rendered. A node with notes shows their count (`annotationCounts`).
 */
export function RunGraph({
  graph,
  live,
  collapse = "auto",
  annotationCounts = NO_NOTES,
}: {
  graph: RunGraphModel;
  live: boolean;
  collapse?: "auto" | "off";
  /** People's notes per node id, for the nodes' badges (lib/query/annotation-queries.ts `annotationCounts`). */
  annotationCounts?: ReadonlyMap<string, number>;
}) {
  return (
    <AnnotationCountsContext.Provider value={annotationCounts}>
      <ReactFlowProvider>
        <RunGraphCanvas graph={graph} live={live} collapse={collapse} />
      </ReactFlowProvider>
    </AnnotationCountsContext.Provider>
  );
}

const NO_NOTES: ReadonlyMap<string, number> = new Map();
