"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo, useId } from "react";
import { HANDLES, nodeText } from "@/lib/graph";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { CodeEvaluationNode } from "./code-nodes";
import { CacheMarker, FlowHandles, NodeFrame, NodeLabel, type FlowNode } from "./node-frame";

export const ORACLE_EXPLANATION = "uses the gold answer — an oracle signal, not self-evaluation";

/** A badge saying the verdict came from the gold answer, with a tooltip on hover. */
export function OracleBadge({ className }: { className?: string }) {
  const tooltipId = useId();
  return (
    <span className={cn("group/oracle relative inline-flex", className)}>
      <Badge tone="violet" data-testid="oracle-badge" aria-describedby={tooltipId} className="cursor-help">
        oracle
      </Badge>
      <span
        id={tooltipId}
        role="tooltip"
        data-testid="oracle-tooltip"
        className="pointer-events-none invisible absolute bottom-full right-0 z-20 mb-1.5 w-56 rounded-md bg-slate-900 px-2 py-1.5 text-[11px] font-normal normal-case leading-snug tracking-normal text-white opacity-0 shadow-lg transition-opacity group-hover/oracle:visible group-hover/oracle:opacity-100"
      >
        {ORACLE_EXPLANATION.charAt(0).toUpperCase() + ORACLE_EXPLANATION.slice(1)}.
      </span>
    </span>
  );
}

/** The Evaluator's verdict on the trial: pass green, fail red. Code runs: the internal and hidden verdicts side by side. */
export const EvaluationNode = memo(function EvaluationNode({ id, data }: NodeProps<FlowNode<"evaluation">>) {
  if (data.code) return <CodeEvaluationNode id={id} data={data} code={data.code} />;
  const pass = data.verdict === "pass";
  return (
    <NodeFrame
      id={id}
      kind="evaluation"
      trial={data.trial}
      data-verdict={data.verdict}
      data-oracle={data.oracle}
      // visible overflow so the oracle tooltip is not clipped
      className={cn(
        "overflow-visible border-2 px-3 py-2",
        pass ? "border-green-600 bg-green-50" : "border-red-600 bg-red-50",
      )}
    >
      <FlowHandles />
      <NodeLabel className={pass ? "text-green-800" : "text-red-800"} right={data.oracle ? <OracleBadge /> : null}>
        Evaluation · {data.evaluatorKind}
      </NodeLabel>
      <p className={cn("mt-0.5 text-sm font-semibold", pass ? "text-green-800" : "text-red-800")}>
        {pass ? "✓ Pass" : "✗ Fail"} <span className="text-xs font-normal text-slate-600">score {data.score}</span>
      </p>
      {data.judge ? <JudgeScores judge={data.judge} pass={pass} /> : <p className="line-clamp-2 text-xs leading-snug text-slate-700">{nodeText(data.feedback)}</p>}
    </NodeFrame>
  );
});

/** An LLM judge's verdict on the node: weighted score vs threshold, one thin bar per criterion, and the "model's opinion" label. */
function JudgeScores({ judge, pass }: { judge: NonNullable<FlowNode<"evaluation">["data"]["judge"]>; pass: boolean }) {
  return (
    <div className="mt-0.5 space-y-0.5" data-testid="node-judge-scores">
      <p className="text-[11px] text-slate-700">
        judge {judge.weightedScore.toFixed(2)} {pass ? "≥" : "<"} {judge.threshold.toFixed(2)} ·{" "}
        <span className="font-medium text-amber-900" data-testid="node-judge-opinion">
          a model&apos;s opinion, not an oracle
        </span>
      </p>
      <ul className="flex gap-1" aria-label="Judge scores per criterion">
        {judge.criteria.slice(0, 8).map((criterion) => (
          <li key={criterion.id} className="min-w-0 flex-1" title={`${criterion.id} (weight ${criterion.weight}): ${criterion.rawScore}/5`}>
            <div className="h-1.5 overflow-hidden rounded bg-slate-200">
              <div className={criterion.score >= 0.8 ? "h-full bg-green-600" : criterion.score >= 0.5 ? "h-full bg-amber-500" : "h-full bg-red-600"} style={{ width: `${Math.round(criterion.score * 100)}%` }} />
            </div>
            <p className="truncate text-[9px] leading-tight text-slate-600">{criterion.id}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The Self-Reflection model's lesson, which goes into the episodic memory. */
export const ReflectionNode = memo(function ReflectionNode({ id, data }: NodeProps<FlowNode<"reflection">>) {
  return (
    <NodeFrame
      id={id}
      kind="reflection"
      trial={data.trial}
      data-edited={data.edited}
      data-source={data.callSource ?? undefined}
      className="border-amber-300 border-l-4 border-l-amber-500 bg-amber-50 px-3 py-2"
    >
      <FlowHandles bottom={false} />
      <Handle type="source" id={HANDLES.memoryOut} position={Position.Right} isConnectable={false} />
      <NodeLabel
        className="text-amber-900"
        right={
          <span className="flex items-center gap-1">
            {data.callSource === "cache" ? <CacheMarker /> : null}
            {data.warning ? (
              <Badge tone="red" data-testid="reflection-warning-badge" title={`Stored with a warning: ${data.warning.replace(/\.$/, "")}. Select the node to see what you can do.`}>
                ⚠ check
              </Badge>
            ) : null}
            {data.edited ? (
              <Badge tone="amber" data-testid="edited-badge" title={`Original: ${data.originalText}`} className="bg-amber-200">
                edited
              </Badge>
            ) : null}
          </span>
        }
      >
        Self-reflection
      </NodeLabel>
      <p className="mt-1 line-clamp-4 text-xs leading-snug text-slate-800">{nodeText(data.text)}</p>
      <p className="mt-auto truncate text-[11px] text-amber-900">
        {data.inNextContext === null
          ? "→ episodic memory"
          : data.inNextContext
            ? `→ in trial ${data.trial + 1}'s context`
            : `→ not in trial ${data.trial + 1}'s context`}
      </p>
    </NodeFrame>
  );
});

/** A model call that failed for good (after retries). Never a failed trial by itself. */
export const CallErrorNode = memo(function CallErrorNode({ id, data }: NodeProps<FlowNode<"call-error">>) {
  return (
    <NodeFrame id={id} kind="error" trial={data.trial} data-step={data.step ?? undefined} className="border-dashed border-red-400 bg-white px-3 py-2">
      <FlowHandles />
      <NodeLabel className="text-red-700" right={<Badge tone="red">{data.code}</Badge>}>
        {data.role} call failed
      </NodeLabel>
      <p className="mt-1 line-clamp-2 text-xs text-slate-700">{data.message}</p>
    </NodeFrame>
  );
});
