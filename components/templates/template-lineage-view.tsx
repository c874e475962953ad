"use client";

import { useQuery } from "@tanstack/react-query";
import { Background, BackgroundVariant, Controls, ReactFlow, type Edge, type NodeTypes, type ReactFlowInstance } from "@xyflow/react";
import { useCallback, useId, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";
import type { Template } from "@/lib/domain/template-library";
import { labelNameSchema } from "@/lib/domain/template-library";
import { layoutLineage } from "@/lib/graph/lineage-layout";
import { templateLineageQuery, useMoveLabel } from "@/lib/query/template-queries";
import { inputClass } from "@/components/home/form-field";
import { useResolvedTheme } from "@/components/theme";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";
import { LineageActionsContext, LineageVersionNode, type LineageActions, type LineageFlowNode } from "./lineage-node";

/** Module-level so React Flow never sees a new object (it remounts every node otherwise). */
const nodeTypes = { version: LineageVersionNode } satisfies NodeTypes;
const PRO_OPTIONS = { hideAttribution: false } as const;
/** Versions the first view fits: a long lineage opens on its newest ones at a readable zoom (pan or zoom out for the rest). */
const FIRST_VIEW_VERSIONS = 6;
/** Zoom at which a node's text stays readable; the first view and keyboard focus never go below it. */
const READABLE_ZOOM = 0.6;

/**
 * The template's lineage: its versions as a tree (parent → child, laid out
 * by dagre in lib/graph/lineage-layout.ts) from `GET /api/templates/:id/lineage`,
 * each node with its measured score (or "not measured"), the Pareto front
 * marked, "Diff against parent" (opens the Diff tab on the pair) and "Accept"
 * (points a label, default "accepted", at the version). Nodes are focusable
 * (one Tab stop each, the view pans to the focused one): Enter opens the diff
 * against the parent, A accepts.
 */
export function TemplateLineageView({ template, onDiff }: { template: Template; onDiff: (versionId: string, parentId: string) => void }) {
  const lineage = useQuery(templateLineageQuery(template.id));
  const move = useMoveLabel(template.id);
  const theme = useResolvedTheme();
  const [acceptLabel, setAcceptLabel] = useState("accepted");
  const labelId = useId();
  const labelCheck = labelNameSchema.safeParse(acceptLabel);

  const layout = useMemo(() => (lineage.data ? layoutLineage(lineage.data.nodes) : null), [lineage.data]);
  const parentOf = useMemo(() => new Map((layout?.edges ?? []).map((edge) => [edge.target, edge.source])), [layout]);
  const nodes = useMemo<LineageFlowNode[]>(
    () =>
      (layout?.nodes ?? []).map((placed) => ({
        id: placed.id,
        type: "version",
        position: { x: placed.x, y: placed.y },
        width: placed.width,
        height: placed.height,
        // Not selectable nor draggable, React Flow would let clicks fall through to the pane: the buttons inside need them.
        style: { width: placed.width, height: placed.height, pointerEvents: "all" },
        data: { version: placed.version, versionId: placed.id, hasParent: parentOf.has(placed.id), isRoot: !parentOf.has(placed.id) },
        ariaLabel: placed.version
          ? `v${placed.version.number}: ${placed.version.message || "no message"}${placed.version.labels.length > 0 ? `, labels ${placed.version.labels.join(", ")}` : ""}${parentOf.has(placed.id) ? ". Enter opens the diff against its parent" : ""}. A accepts it`
          : `Parent in another template, ${placed.id}`,
        draggable: false,
        selectable: false,
      })),
    [layout, parentOf],
  );
  const edges = useMemo<Edge[]>(() => (layout?.edges ?? []).map((edge) => ({ ...edge, focusable: false })), [layout]);
  const fitViewOptions = useMemo(() => {
    const newest = [...(layout?.nodes ?? [])]
      .filter((placed) => placed.version !== null)
      .sort((a, b) => b.version!.number - a.version!.number)
      .slice(0, FIRST_VIEW_VERSIONS)
      .map((placed) => ({ id: placed.id }));
    return { padding: 0.15, maxZoom: 1, minZoom: READABLE_ZOOM, ...(newest.length < (layout?.nodes.length ?? 0) ? { nodes: newest } : {}) };
  }, [layout]);
  const flow = useRef<ReactFlowInstance<LineageFlowNode, Edge> | null>(null);
  // Keyboard focus on a node (or a button in it) brings the node into view at a readable zoom.
  const onFocusCapture = useCallback((event: FocusEvent<HTMLDivElement>) => {
    const element = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>(".react-flow__node") : null;
    const id = element?.dataset.id;
    const instance = flow.current;
    if (!id || !instance) return;
    const node = instance.getInternalNode(id);
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    instance.setCenter(x + (node.measured.width ?? 0) / 2, y + (node.measured.height ?? 0) / 2, { zoom: Math.max(instance.getZoom(), READABLE_ZOOM), duration: 150 });
  }, []);

  const diff = useCallback(
    (versionId: string) => {
      const parent = parentOf.get(versionId);
      if (parent !== undefined) onDiff(versionId, parent);
    },
    [parentOf, onDiff],
  );
  const actions = useMemo<LineageActions>(
    () => ({
      diff,
      accept: (versionId) => {
        if (labelCheck.success) move.mutate({ label: labelCheck.data, versionId });
      },
      acceptLabel: labelCheck.success ? labelCheck.data : acceptLabel,
      accepting: move.isPending ? (move.variables?.versionId ?? null) : null,
    }),
    [diff, move, labelCheck, acceptLabel],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || !target.classList.contains("react-flow__node")) return;
      const id = target.dataset.id;
      if (!id) return;
      if (event.key === "Enter" && parentOf.has(id)) {
        event.preventDefault();
        diff(id);
      } else if ((event.key === "a" || event.key === "A") && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const placed = layout?.nodes.find((candidate) => candidate.id === id);
        if (!placed?.version || placed.version.labels.includes(actions.acceptLabel)) return;
        event.preventDefault();
        actions.accept(id);
      }
    },
    [diff, parentOf, layout, actions],
  );

  if (lineage.isPending) {
    return (
      <p className="flex items-center gap-2 pt-3 text-xs text-slate-600">
        <Spinner /> Loading the lineage…
      </p>
    );
  }
  if (lineage.error || !layout) {
    return (
      <Notice tone="error" className="mt-3 text-xs">
        Could not load the lineage: {lineage.error?.message ?? "no answer"} Reload the page to try again.
      </Notice>
    );
  }
  const versionCount = lineage.data.nodes.length;
  if (versionCount <= 1) {
    return (
      <div data-testid="template-lineage" data-versions={versionCount}>
        <EmptyState title="Only one version — save an edit or run the optimiser to grow the tree">
          <p>Each saved edit becomes a child of the version it was edited from; the tree shows them with their measured scores.</p>
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="space-y-2 pt-3" data-testid="template-lineage" data-versions={versionCount} data-edges={layout.edges.length}>
      <div className="flex flex-wrap items-end gap-3 text-[11px] text-slate-600">
        <p className="max-w-xl">
          {versionCount} versions, parent above child. A node shows its held-out score with its 95 % interval and its paired test against its parent when an
          optimisation measured it; <span className="font-medium text-violet-800">◆ front</span> marks the Pareto front. Tab to a version: Enter opens its diff
          against its parent, A accepts it.
        </p>
        <label htmlFor={labelId} className="ml-auto space-y-0.5">
          <span className="block">“Accept” sets the label</span>
          <input
            id={labelId}
            data-testid="lineage-accept-label"
            className={cn(inputClass, "h-8 w-40 py-0 text-xs")}
            value={acceptLabel}
            onChange={(event) => setAcceptLabel(event.target.value)}
            aria-invalid={!labelCheck.success}
          />
        </label>
      </div>
      {!labelCheck.success ? (
        <Notice tone="error" className="text-xs">
          Label “{acceptLabel}”: {labelCheck.error.issues[0]?.message ?? "not a valid label"}. Accept is off until the label is valid.
        </Notice>
      ) : null}
      {move.error ? (
        <Notice tone="error" className="text-xs">
          Could not set the label: {move.error.message}
        </Notice>
      ) : null}
      <div className="h-[56vh] min-h-80 overflow-hidden rounded-md border border-slate-300 bg-white" data-testid="lineage-flow" onFocusCapture={onFocusCapture}>
        <LineageActionsContext.Provider value={actions}>
          <ReactFlow<LineageFlowNode, Edge>
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            onKeyDown={onKeyDown}
            onInit={(instance) => {
              flow.current = instance;
            }}
            fitView
            fitViewOptions={fitViewOptions}
            nodesDraggable={false}
            nodesConnectable={false}
            elementsSelectable={false}
            nodesFocusable
            edgesFocusable={false}
            deleteKeyCode={null}
            selectionKeyCode={null}
            multiSelectionKeyCode={null}
            minZoom={0.2}
            maxZoom={1.5}
            proOptions={PRO_OPTIONS}
            aria-label="Template lineage: versions, parent above child"
            colorMode={theme}
          >
            <Background variant={BackgroundVariant.Dots} gap={18} size={1} color={theme === "dark" ? "#334155" : "#cbd5e1"} />
            <Controls showInteractive={false} position="bottom-left" />
          </ReactFlow>
        </LineageActionsContext.Provider>
      </div>
    </div>
  );
}
