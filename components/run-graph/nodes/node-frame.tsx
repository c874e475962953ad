"use client";

import { Handle, Position, type Node } from "@xyflow/react";
import type { ReactNode } from "react";
import { HANDLES, type ActionNodeData, type GraphNodeDataMap, type GraphNodeKind } from "@/lib/graph";
import { CopyLinkButton } from "@/components/replay/copy-link-button";
import { Badge } from "@/components/ui/badge";
import { useRunUiStore } from "@/lib/store";
import { cn } from "@/lib/utils/cn";
import { useAnnotationCount, useRenderMode } from "../graph-context";

type DataAttributes = { [key: `data-${string}`]: string | number | boolean | undefined };

/**
 * The box every graph node draws: kind-specific colours, the selection ring
 * (read from the UI store by id, so selecting one node re-renders two, not all),
 * and `data-testid="node-<kind>"` plus `data-trial` for end-to-end tests. One
 * element around the node's content; the appear animation only where the
 * graph's {@link useRenderMode} allows it; only the coloured box when the
 * graph is zoomed far out.
 */
export function NodeFrame({
  id,
  kind,
  trial,
  className,
  children,
  ...attributes
}: {
  id: string;
  kind: string;
  trial: number;
  className?: string;
  children: ReactNode;
} & DataAttributes) {
  const selected = useRunUiStore((state) => state.selectedNodeId === id);
  // A lesson step's spotlight (components/lessons): an amber ring and `data-spotlight`.
  const spotlit = useRunUiStore((state) => state.spotlight.includes(id));
  const { animateEntry } = useRenderMode();
  const notes = useAnnotationCount(id);
  return (
    <div
      data-testid={`node-${kind}`}
      data-trial={trial}
      data-node-id={id}
      data-selected={selected || undefined}
      data-spotlight={spotlit || undefined}
      className={cn(
        "relative flex h-full w-full flex-col overflow-hidden rounded-lg border bg-white text-left shadow-sm",
        // Zoomed far out (RunGraph's FAR_ZOOM), the box without its unreadable text: far cheaper to paint.
        "in-[.run-graph-far]:shadow-none in-[.run-graph-far]:*:invisible",
        animateEntry && "node-enter",
        className,
        // An outline, not a ring: it stays visible around a selected (ringed) node.
        spotlit && "outline-4 outline-offset-4 outline-amber-400",
        selected && "ring-2 ring-sky-600 ring-offset-2",
      )}
      {...attributes}
    >
      {children}
      {notes > 0 ? <NotesBadge count={notes} /> : null}
      {/* A link to this moment with this node selected: only on the selected node, so other nodes stay one element. */}
      {selected ? <CopyLinkButton nodeId={id} className="absolute bottom-1 right-1" /> : null}
    </div>
  );
}

/** The count of people's notes on a node (its inspector's "Notes" section lists them). */
function NotesBadge({ count }: { count: number }) {
  const label = `${count} note${count === 1 ? "" : "s"}`;
  return (
    <span
      data-testid="annotation-badge"
      role="img"
      aria-label={label}
      title={`${label} on this node: select it to read them in the inspector`}
      className="absolute bottom-1 left-1 inline-flex items-center gap-0.5 rounded-full border border-amber-300 bg-amber-50 px-1.5 py-px text-[10px] font-semibold leading-none text-amber-900"
    >
      <span aria-hidden="true">✎</span>
      {count}
    </span>
  );
}

/** Top (from the previous node of the trial) and bottom (to the next) handles. Invisible; edges only. */
export function FlowHandles({ top = true, bottom = true }: { top?: boolean; bottom?: boolean }) {
  return (
    <>
      {top ? <Handle type="target" id={HANDLES.previous} position={Position.Top} isConnectable={false} /> : null}
      {bottom ? <Handle type="source" id={HANDLES.next} position={Position.Bottom} isConnectable={false} /> : null}
    </>
  );
}

/** The small uppercase kind label at the top of a node. */
export function NodeLabel({ className, children, right }: { className?: string; children: ReactNode; right?: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <span className={cn("text-[10px] font-semibold uppercase tracking-wide", className)}>{children}</span>
      {right}
    </div>
  );
}

/** Small marker on a node whose model call was served from the replay cache (no new call, no cost). */
export function CacheMarker() {
  return (
    <span
      data-testid="cache-marker"
      title="Served from the response cache: the same prompt and settings were answered before, so no model was called"
      className="inline-flex items-center rounded border border-violet-300 bg-violet-50 px-1 py-px text-[9px] font-semibold uppercase leading-none tracking-wide text-violet-700"
    >
      cache
    </span>
  );
}

/** React Flow's node type for one of our kinds (what node components receive). */
export type FlowNode<K extends GraphNodeKind> = Node<GraphNodeDataMap[K], K>;

/** The markers an action node's header shows on the right: served from the cache, written by a person, plus `children`. */
export function ActionMarkers({ data, children }: { data: Pick<ActionNodeData, "callSource" | "callId"> & Partial<Pick<ActionNodeData, "ignored" | "truncated" | "recordedByAuthors">>; children?: ReactNode }) {
  return (
    <span className="flex items-center gap-1">
      {data.callSource === "cache" ? <CacheMarker /> : null}
      {data.ignored ? (
        <Badge tone="outline" data-testid="ignored-badge" title={`The action reader took the first well-formed action and ignored: ${data.ignored.slice(0, 300)}${data.ignored.length > 300 ? "…" : ""}`}>
          ignored text
        </Badge>
      ) : null}
      {data.truncated ? (
        <Badge tone="amber" data-testid="truncated-badge" title="The completion was cut off by the token limit (finish reason: length) but still held this action">
          cut off
        </Badge>
      ) : null}
      {data.recordedByAuthors ? (
        <RecordedMarker />
      ) : data.callId === null ? (
        <Badge tone="outline" data-testid="by-person-badge" title="A person wrote this action (an action edit); no model was called">
          by a person
        </Badge>
      ) : null}
      {children}
    </span>
  );
}

/** A step of an imported run (the authors' published log, or an outside agent's trace) as the record has it: not "by a person". */
export function RecordedMarker() {
  return (
    <Badge tone="outline" data-testid="as-logged-badge" title="As the imported record has it (the authors' published log, or an outside agent's trace): no person wrote it; a paper log published no model call">
      as logged
    </Badge>
  );
}

/** The frame attributes every action node has (QA, household and code alike). */
export function actionFrameProps(id: string, data: ActionNodeData) {
  return {
    id,
    kind: "action" as const,
    trial: data.trial,
    "data-step": data.step,
    "data-source": data.callSource ?? undefined,
    "data-by-person": (data.callId === null && !data.recordedByAuthors) || undefined,
    className: "border-sky-200 border-l-4 border-l-sky-600 px-3 py-2",
  };
}
