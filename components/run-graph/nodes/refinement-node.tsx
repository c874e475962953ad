"use client";

import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { nodeText } from "@/lib/graph";
import { cn } from "@/lib/utils/cn";
import { CacheMarker, FlowHandles, NodeFrame, NodeLabel, type FlowNode } from "./node-frame";

/**
 * One Self-Refine round in the trial's lane, between the trajectory and the verdict: the model's
 * feedback on its own answer, then the answer it rewrote (or "nothing left to fix" when the
 * feedback said the stop phrase).
 */
export const RefinementNode = memo(function RefinementNode({ id, data }: NodeProps<FlowNode<"refinement">>) {
  return (
    <NodeFrame
      id={id}
      kind="refinement"
      trial={data.trial}
      data-stop={data.stop}
      data-source={data.callSource ?? undefined}
      className="border-indigo-300 border-l-4 border-l-indigo-500 bg-indigo-50 px-3 py-2"
    >
      <FlowHandles />
      <NodeLabel className="text-indigo-900" right={data.callSource === "cache" ? <CacheMarker /> : null}>
        Self-Refine · round {data.round}
      </NodeLabel>
      <p className="mt-1 line-clamp-2 text-xs leading-snug text-slate-800">
        <span className="font-medium text-indigo-900">Feedback: </span>
        {nodeText(data.feedback)}
      </p>
      <p className={cn("mt-auto line-clamp-2 text-[11px] leading-snug text-slate-700", data.monospace && data.answer !== null && "font-mono")}>
        {data.stop ? "→ nothing left to fix: the Evaluator judges the answer as it is" : data.answer === null ? "→ refining…" : `→ ${nodeText(data.answer)}`}
      </p>
    </NodeFrame>
  );
});
