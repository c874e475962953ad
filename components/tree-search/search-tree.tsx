"use client";

import { Background, BackgroundVariant, ControlButton, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, useStore, type NodeMouseHandler, type NodeTypes } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore, type KeyboardEvent } from "react";
import type { TreeLayout } from "@/lib/graph/tree-layout";
import { useResolvedTheme } from "@/components/theme";
import { SearchTreeActionsContext, type SearchTreeActions } from "./tree-context";
import { toTreeFlowEdge, toTreeFlowNode, type TreeFlowEdge, type TreeFlowNode } from "./tree-flow";
import { SearchTreeNode } from "./tree-node";

/** The node component. Module-level so React Flow never sees a new object (it would remount every node). */
export const treeNodeTypes = { tree: SearchTreeNode } satisfies NodeTypes;

/** Above this many drawn nodes only the nodes and edges in view are rendered, as in the run graph (components/run-graph). */
export const TREE_VIRTUALIZE_ABOVE = 250;
/**
 * Above this many drawn nodes the minimap is left out: it draws every node as an SVG rectangle
 * (25,000 of them made a 25,000-node tree's DOM and heap); the fit button still shows the whole tree.
 */
export const TREE_MINIMAP_MAX_NODES = 2000;
/** Below this zoom node text would be unreadable: only the coloured boxes are painted (`search-tree-far`). */
export const TREE_FAR_ZOOM = 0.4;

const PRO_OPTIONS = { hideAttribution: false } as const;
const FIT_PADDING = 40;
const MINIMAP_STYLE = { width: 150, height: 110 } as const;
const PAN_MS = 300;
const REVEAL_MARGIN = 24;
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function minimapColour(node: TreeFlowNode): string {
  return node.data.placed.colour;
}

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

/**
 * First view: the whole tree when it fits at zoom ≥ 0.5; otherwise the root at the top centre at
 * zoom 0.6 (a wide tree is explored from its root down).
 */
function useInitialViewport(layout: TreeLayout) {
  const { setViewport } = useReactFlow<TreeFlowNode, TreeFlowEdge>();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  const done = useRef(false);
  useEffect(() => {
    if (done.current || layout.nodes.length === 0 || width === 0 || height === 0) return;
    done.current = true;
    const fit = Math.min(1, (width - 2 * FIT_PADDING) / Math.max(1, layout.width), (height - 2 * FIT_PADDING) / Math.max(1, layout.height));
    if (fit >= 0.5) {
      void setViewport({ x: (width - layout.width * fit) / 2, y: (height - layout.height * fit) / 2, zoom: fit });
      return;
    }
    // A wide tree: its top around the root at a zoom where the text is still readable.
    const zoom = 0.6;
    const root = layout.nodes[0]!;
    void setViewport({ x: width / 2 - (root.x + root.width / 2) * zoom, y: FIT_PADDING, zoom });
  }, [layout, width, height, setViewport]);
}

/**
 * The controls' fit button, from the layout's own bounds: React Flow's fitView only fits nodes it
 * has measured, and with only visible elements rendered most nodes never are. The smallest zoom
 * allowed is low enough to fit the whole tree.
 */
function useFitWholeTree(layout: TreeLayout, reducedMotion: boolean): { fit: () => void; minZoom: number } {
  const { setViewport } = useReactFlow<TreeFlowNode, TreeFlowEdge>();
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  const zoom = Math.min(1, (width - 2 * FIT_PADDING) / Math.max(1, layout.width), (height - 2 * FIT_PADDING) / Math.max(1, layout.height));
  const fit = useCallback(() => {
    if (width === 0 || height === 0) return;
    void setViewport({ x: (width - layout.width * zoom) / 2, y: (height - layout.height * zoom) / 2, zoom }, { duration: reducedMotion ? 0 : PAN_MS });
  }, [layout, width, height, zoom, setViewport, reducedMotion]);
  return { fit, minZoom: Math.max(0.005, Math.min(0.05, zoom)) };
}

/** When the selection changes to a node out of view, pans to it (no glide with reduced motion). */
function useRevealSelected(nodes: readonly TreeFlowNode[], selected: string | null, reducedMotion: boolean) {
  const { setCenter, getViewport } = useReactFlow<TreeFlowNode, TreeFlowEdge>();
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
    const w = node.width ?? 0;
    const h = node.height ?? 0;
    const left = node.position.x * zoom + x;
    const top = node.position.y * zoom + y;
    const inView = left >= REVEAL_MARGIN && top >= REVEAL_MARGIN && left + w * zoom <= width - REVEAL_MARGIN && top + h * zoom <= height - REVEAL_MARGIN;
    if (inView) return;
    void setCenter(node.position.x + w / 2, node.position.y + h / 2, { zoom: Math.max(zoom, 0.75), duration: reducedMotion ? 0 : PAN_MS });
  }, [nodes, selected, width, height, getViewport, setCenter, reducedMotion]);
}

/**
 * Collapsing or expanding a subtree lays the tree out again and moves the toggled node: this pans
 * by the same amount so the node stays where it was on screen (the pointer and the keyboard keep
 * their place). Returns the toggle to give the nodes.
 */
function useAnchoredToggle(layout: TreeLayout, onToggleCollapse: (id: string) => void): (id: string) => void {
  const { getViewport, setViewport } = useReactFlow<TreeFlowNode, TreeFlowEdge>();
  const anchor = useRef<{ id: string; x: number; y: number } | null>(null);
  const layoutRef = useRef(layout);
  const toggleRef = useRef(onToggleCollapse);
  useEffect(() => {
    toggleRef.current = onToggleCollapse;
  }, [onToggleCollapse]);
  useEffect(() => {
    layoutRef.current = layout;
    const held = anchor.current;
    if (!held) return;
    anchor.current = null;
    const moved = layout.nodes.find((node) => node.id === held.id);
    if (!moved || (moved.x === held.x && moved.y === held.y)) return;
    const { x, y, zoom } = getViewport();
    void setViewport({ x: x - (moved.x - held.x) * zoom, y: y - (moved.y - held.y) * zoom, zoom });
  }, [layout, getViewport, setViewport]);
  return useCallback((id: string) => {
    const node = layoutRef.current.nodes.find((candidate) => candidate.id === id);
    anchor.current = node ? { id, x: node.x, y: node.y } : null;
    toggleRef.current(id);
  }, []);
}

/** Props of {@link SearchTree}. */
export interface SearchTreeProps {
  /** The laid-out tree (lib/graph/tree-layout.ts). */
  layout: TreeLayout;
  selectedNodeId: string | null;
  onSelectNode: (id: string) => void;
  onToggleCollapse: (id: string) => void;
}

function SearchTreeCanvas({ layout, selectedNodeId, onSelectNode, onToggleCollapse }: SearchTreeProps) {
  const theme = useResolvedTheme();
  const reducedMotion = useReducedMotion();
  const nodes = useMemo(() => layout.nodes.map((placed) => toTreeFlowNode(placed, placed.id === selectedNodeId)), [layout.nodes, selectedNodeId]);
  const edges = useMemo(() => layout.edges.map(toTreeFlowEdge), [layout.edges]);
  const virtualize = nodes.length > TREE_VIRTUALIZE_ABOVE;
  // One subscription for the whole tree; it changes only when the zoom crosses TREE_FAR_ZOOM.
  const far = useStore((state) => state.transform[2] < TREE_FAR_ZOOM);
  const toggle = useAnchoredToggle(layout, onToggleCollapse);
  // Stable for the life of the tree, so memoised nodes never re-render for it.
  const actions = useMemo<SearchTreeActions>(() => ({ toggleCollapse: toggle }), [toggle]);

  useInitialViewport(layout);
  const fitWhole = useFitWholeTree(layout, reducedMotion);
  useRevealSelected(nodes, selectedNodeId, reducedMotion);

  const onNodeClick: NodeMouseHandler<TreeFlowNode> = useCallback((_event, node) => onSelectNode(node.id), [onSelectNode]);
  // Nodes are focusable (Tab); Enter or Space on a focused node selects it; ArrowLeft collapses its
  // subtree and ArrowRight expands it again (the WAI-ARIA tree view's keys).
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || !target.classList.contains("react-flow__node")) return;
      const id = target.dataset.id;
      if (!id) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onSelectNode(id);
        return;
      }
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      const placed = layout.nodes.find((node) => node.id === id);
      if (!placed || placed.descendants === 0 || placed.collapsed === (event.key === "ArrowLeft")) return;
      event.preventDefault();
      toggle(id);
    },
    [onSelectNode, layout.nodes, toggle],
  );

  return (
    <SearchTreeActionsContext.Provider value={actions}>
      <ReactFlow<TreeFlowNode, TreeFlowEdge>
        className={far ? "search-tree search-tree-far" : "search-tree"}
        nodes={nodes}
        edges={edges}
        nodeTypes={treeNodeTypes}
        onNodeClick={onNodeClick}
        onKeyDown={onKeyDown}
        onlyRenderVisibleElements={virtualize}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        nodesFocusable
        edgesFocusable={false}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        minZoom={fitWhole.minZoom}
        maxZoom={1.75}
        proOptions={PRO_OPTIONS}
        aria-label="Search tree: the root at the top, each node one step; Tab to a node, Enter shows it, ArrowLeft and ArrowRight collapse and expand it"
        colorMode={theme}
        data-virtualized={virtualize || undefined}
      >
        <Background variant={BackgroundVariant.Dots} gap={18} size={1} color={theme === "dark" ? "#334155" : "#cbd5e1"} />
        <Controls showInteractive={false} showFitView={false} position="bottom-left">
          <ControlButton className="react-flow__controls-fitview" onClick={fitWhole.fit} title="Fit the whole tree" aria-label="Fit the whole tree">
            <svg aria-hidden="true" viewBox="0 0 32 30">
              <path d="M3.692 4.63c0-.53.4-.938.939-.938h5.215V0H4.708C2.13 0 0 2.054 0 4.63v5.216h3.692V4.631zM27.354 0h-5.2v3.692h5.17c.53 0 .984.4.984.939v5.215H32V4.631A4.624 4.624 0 0027.354 0zm.954 24.83c0 .532-.4.94-.939.94h-5.215v3.768h5.215c2.577 0 4.631-2.13 4.631-4.707v-5.139h-3.692v5.139zm-23.677.94c-.531 0-.939-.4-.939-.94v-5.138H0v5.139c0 2.577 2.13 4.707 4.708 4.707h5.138V25.77H4.631z" />
            </svg>
          </ControlButton>
        </Controls>
        {nodes.length > TREE_MINIMAP_MAX_NODES ? null : <MiniMap<TreeFlowNode> pannable zoomable nodeColor={minimapColour} nodeStrokeWidth={0} position="bottom-right" ariaLabel="Mini map of the search tree" style={MINIMAP_STYLE} />}
      </ReactFlow>
    </SearchTreeActionsContext.Provider>
  );
}

/**
 * The search tree of a LATS run drawn with React Flow, top-down from the root; the same
 * conventions as the run graph (components/run-graph): nodes focusable and selected with
 * Enter/Space or a click (ArrowLeft/ArrowRight collapse and expand a focused node's subtree), only visible elements rendered above {@link TREE_VIRTUALIZE_ABOVE}
 * nodes, text dropped below {@link TREE_FAR_ZOOM}, controls and a minimap.
 */
export function SearchTree(props: SearchTreeProps) {
  return (
    <ReactFlowProvider>
      <SearchTreeCanvas {...props} />
    </ReactFlowProvider>
  );
}
