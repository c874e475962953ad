"use client";

import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo, type MouseEvent } from "react";
import { HANDLES } from "@/lib/graph";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";
import { useRunUiStore } from "@/lib/store";
import { useRunGraphActions } from "../graph-context";
import { CodeTrialLine } from "./code-nodes";
import { FlowHandles, NodeFrame, type FlowNode } from "./node-frame";

const outcomeTone: Record<"success" | "failure" | "halted", BadgeTone> = { success: "green", failure: "red", halted: "amber" };

/** Collapses a finished trial's lane into one group node (a trial in progress stays open). */
function CollapseButton({ trial }: { trial: number }) {
  const { collapseTrial } = useRunGraphActions();
  const onClick = (event: MouseEvent) => {
    event.stopPropagation();
    collapseTrial(trial);
  };
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={`Collapse trial ${trial}`}
      title={`Collapse trial ${trial} into one node`}
      data-testid="collapse-trial"
      className="nodrag nopan -ml-1 grid size-4 place-items-center rounded text-[10px] leading-none text-slate-300 hover:bg-slate-700 hover:text-white focus-visible:outline-2 focus-visible:outline-sky-400"
    >
      ▾
    </button>
  );
}

/** Header of a trial's lane: the trial number, its outcome (or "in progress", "replaying" at a replay cursor) and the memory the Actor started with (code runs: and both verdicts). */
export const TrialLaneNode = memo(function TrialLaneNode({ id, data }: NodeProps<FlowNode<"trial">>) {
  // A trial without an outcome at a replay cursor is being replayed, not running (lib/domain/shown-status.ts).
  const replaying = useRunUiStore((state) => state.cursor !== null);
  return (
    <NodeFrame
      id={id}
      kind="trial"
      trial={data.trial}
      data-outcome={data.outcome ?? (data.cancelled ? "cancelled" : "running")}
      data-memory-missing={data.memoryMissing || undefined}
      data-false-positive={data.code?.falsePositive || undefined}
      className={cn("border-slate-800 bg-slate-900 px-3 py-2 text-white", data.memoryMissing && "border-2 border-red-500")}
    >
      <Handle type="target" id={HANDLES.memoryIn} position={Position.Left} isConnectable={false} />
      <FlowHandles top={false} />
      <div className="flex items-center justify-between gap-2">
        <span className="flex min-w-0 items-center gap-1">
          {data.outcome ? <CollapseButton trial={data.trial} /> : null}
          <span className="text-sm font-semibold">Trial {data.trial}</span>
        </span>
        {data.outcome === "success" && data.code?.falsePositive ? (
          <Badge
            tone="amber"
            title={
              data.code.vacuous
                ? "No internal tests were kept, so the empty suite passed vacuously and the loop stopped; the hidden tests failed."
                : "The agent's own tests passed, so the loop stopped; the hidden tests failed."
            }
          >
            internal pass
          </Badge>
        ) : data.outcome ? (
          <Badge tone={outcomeTone[data.outcome]}>{data.outcome}</Badge>
        ) : data.cancelled ? (
          <Badge tone="red" title="The run was cancelled during this trial: it was never evaluated.">
            cancelled
          </Badge>
        ) : replaying ? (
          <Badge tone="violet" title="The replay cursor stands inside this trial: its outcome lies past the cursor.">
            replaying
          </Badge>
        ) : (
          <Badge tone="sky" className="bg-sky-200">
            in progress
          </Badge>
        )}
      </div>
      {data.memoryMissing ? (
        <p
          className="mt-1 truncate text-xs font-semibold text-red-300"
          data-testid="memory-missing-badge"
          title="The Actor prompt of this trial lacks the memory its strategy should put there. Open a Thought node to see the prompt."
        >
          ⚠ {data.memoryInContext > 0 ? "memory not in prompt" : "no memory in prompt"}
        </p>
      ) : (
        <p className={cn("mt-1 truncate text-xs", data.memoryInContext > 0 ? "text-amber-200" : "text-slate-300")}>
          Memory in context: {memoryInContextText(data.memoryInContext, data.insightsInContext ?? 0)}
          {data.memoryEvicted > 0 ? <span className="text-slate-400"> · {data.memoryEvicted} evicted</span> : null}
        </p>
      )}
      {data.code ? <CodeTrialLine code={data.code} /> : null}
    </NodeFrame>
  );
});

/** Non-interactive background behind one trial's column. */
export const LaneBackgroundNode = memo(function LaneBackgroundNode({ data }: NodeProps<FlowNode<"lane">>) {
  return (
    <div
      aria-hidden
      className={cn(
        "h-full w-full rounded-xl border",
        data.outcome === "success" ? "border-green-200 bg-green-50/50" : data.outcome ? "border-slate-200 bg-slate-100/70" : "border-sky-200 bg-sky-50/50",
      )}
    />
  );
});

/** "2 reflections", or with ExpeL insights "4 insights, 1 reflection". */
function memoryInContextText(total: number, insights: number): string {
  const reflections = total - insights;
  const reflectionText = `${reflections} ${reflections === 1 ? "reflection" : "reflections"}`;
  return insights > 0 ? `${insights} ${insights === 1 ? "insight" : "insights"}, ${reflectionText}` : reflectionText;
}
