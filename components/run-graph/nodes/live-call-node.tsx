"use client";

import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { formatElapsed } from "@/components/ui/format";
import { useNow } from "@/components/ui/use-now";
import { cn } from "@/lib/utils/cn";
import { FlowHandles, NodeFrame, NodeLabel, type FlowNode } from "./node-frame";

/** The running time of the call, ticking each second (only this node re-renders). */
function Elapsed({ startedAt, running }: { startedAt: string; running: boolean }) {
  const now = useNow(running);
  const started = Date.parse(startedAt);
  if (Number.isNaN(started)) return null;
  return (
    <span data-testid="live-call-elapsed" className="tabular-nums">
      {formatElapsed(now - started)}
    </span>
  );
}

/** Roughly more than the node's five or six lines (272 px wide, 12 px text): then the tail is what matters. */
function outgrows(text: string): boolean {
  return text.length > 200 || text.split("\n").length > 5;
}

/**
 * The model call in flight: the Actor step being generated (or the reflection
 * being written), with its text as it streams in — the newest lines stay in
 * view. It stands where the step's thought (or the reflection) will be and is
 * replaced by it when the call's events arrive.
 */
export const LiveCallNode = memo(function LiveCallNode({ id, data }: NodeProps<FlowNode<"live-call">>) {
  const actor = data.role === "actor";
  // An Actor-model call outside a step is Self-Refine's feedback or refinement.
  const what = actor ? (data.step === null ? "Actor · Self-Refine" : `Actor · step ${data.step}`) : "Self-reflection";
  const state = data.ended ? (actor ? "running action…" : "saving…") : data.text === "" ? "waiting…" : "streaming…";
  return (
    <NodeFrame
      id={id}
      kind="live-call"
      trial={data.trial}
      data-step={data.step ?? undefined}
      data-role={data.role}
      data-ended={data.ended}
      aria-busy={!data.ended}
      className={cn(
        "border-dashed px-3 py-2",
        actor ? "border-violet-300 border-l-4 border-l-violet-400 bg-violet-50/40" : "border-amber-300 border-l-4 border-l-amber-400 bg-amber-50/50",
      )}
    >
      <FlowHandles bottom={actor} />
      <NodeLabel
        className={cn("whitespace-nowrap", actor ? "text-violet-700" : "text-amber-900")}
        right={
          <span className="flex items-center gap-1.5 whitespace-nowrap text-[10px] text-slate-500" title={data.text === "" && !data.ended ? "No text has reached this page yet: the model has not answered, or the call runs in another process." : undefined}>
            <span aria-hidden className={cn("size-1.5 rounded-full", data.ended ? "bg-slate-400" : "animate-pulse bg-sky-500")} />
            <span data-testid="live-call-state">{state}</span>
            <Elapsed startedAt={data.startedAt} running={!data.ended} />
          </span>
        }
      >
        {what}
      </NodeLabel>
      {/* A long text is bottom-aligned: its beginning is clipped, the newest words stay in view. */}
      <div className={cn("mt-1 flex min-h-0 flex-1 flex-col overflow-hidden", outgrows(data.text) && "justify-end")}>
        <p
          data-testid="live-call-text"
          aria-live="off"
          className={cn("whitespace-pre-wrap break-words text-xs leading-snug text-slate-800", data.monospace && "font-mono text-[11px]")}
        >
          {data.joinedLate ? <span className="text-slate-500">… </span> : null}
          {data.text}
          {data.ended ? null : <span aria-hidden className="live-caret ml-px inline-block h-3 w-1 translate-y-0.5 animate-pulse bg-slate-500" />}
        </p>
      </div>
    </NodeFrame>
  );
});
