"use client";

import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { memo, type MouseEvent } from "react";
import { HANDLES, type TrialGroupNodeData } from "@/lib/graph";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { useRunGraphActions } from "../graph-context";
import { NodeFrame } from "./node-frame";

const outcomeTone: Record<"success" | "failure" | "halted", BadgeTone> = { success: "green", failure: "red", halted: "amber" };

/** React Flow's node type for a collapsed trial. */
export type TrialGroupFlowNode = Node<TrialGroupNodeData, "trial-group">;

/** What the collapsed trial hid that a reader should know about, in words. */
function flagsOf(data: TrialGroupNodeData): string[] {
  const flags: string[] = [];
  if (data.loops > 0) flags.push(`${data.loops} ${data.loops === 1 ? "loop" : "loops"}`);
  if (data.invalidActions > 0) flags.push(`${data.invalidActions} invalid ${data.invalidActions === 1 ? "action" : "actions"}`);
  if (data.callErrors > 0) flags.push(`${data.callErrors} failed ${data.callErrors === 1 ? "call" : "calls"}`);
  if (data.memoryMissing) flags.push("memory not in prompt");
  if (data.code?.falsePositive) flags.push("false positive");
  return flags;
}

/**
 * A collapsed trial (DESIGN.md §5): one node in place of its lane — the trial,
 * its outcome, steps and verdict, what went wrong, the reflection it wrote —
 * and an Expand button. Clicking the node, or Enter / Space while it has focus,
 * expands it too (RunGraph handles those).
 */
export const TrialGroupNode = memo(function TrialGroupNode({ id, data }: NodeProps<TrialGroupFlowNode>) {
  const { expandTrial } = useRunGraphActions();
  const flags = flagsOf(data);
  const onExpand = (event: MouseEvent) => {
    event.stopPropagation();
    expandTrial(data.trial);
  };
  return (
    <NodeFrame
      id={id}
      kind="trial-group"
      trial={data.trial}
      data-outcome={data.outcome ?? "running"}
      data-steps={data.steps}
      className="cursor-pointer border-2 border-dashed border-slate-400 bg-slate-50 px-3 py-2"
    >
      <Handle type="target" id={HANDLES.memoryIn} position={Position.Left} isConnectable={false} />
      <Handle type="source" id={HANDLES.memoryOut} position={Position.Right} isConnectable={false} />
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-semibold text-slate-900">Trial {data.trial}</span>
        {data.outcome ? <Badge tone={outcomeTone[data.outcome]}>{data.outcome}</Badge> : <Badge tone="sky">in progress</Badge>}
      </div>
      <p className="mt-0.5 truncate text-xs text-slate-600">
        collapsed · {data.steps} {data.steps === 1 ? "step" : "steps"}
        {data.verdict ? <> · {data.verdict === "pass" ? "✓ pass" : "✗ fail"}</> : null} · memory {data.memoryInContext}
      </p>
      {flags.length > 0 ? <p className="truncate text-[11px] font-medium text-amber-800">⚠ {flags.join(" · ")}</p> : null}
      <p className={cn("mt-1 line-clamp-2 text-[11px] leading-snug", data.reflection === null ? "italic text-slate-500" : "text-amber-950")}>
        {data.reflection === null ? "no reflection" : `Reflection${data.reflectionEdited ? " (edited)" : ""}: ${data.reflection}`}
      </p>
      <button
        type="button"
        onClick={onExpand}
        data-testid="expand-trial"
        className="nodrag nopan mt-auto self-start rounded border border-slate-300 bg-white px-2 py-0.5 text-[11px] font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600"
      >
        ▸ Expand trial {data.trial} ({data.hiddenNodes} nodes)
      </button>
    </NodeFrame>
  );
});
