"use client";

import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { Badge } from "@/components/ui/badge";
import { nodeText } from "@/lib/graph";
import { splitDisplay } from "@/lib/graph/step-display";
import { cn } from "@/lib/utils/cn";
import { CodeActionNode, CodeObservationNode } from "./code-nodes";
import { ActionMarkers, actionFrameProps, CacheMarker, FlowHandles, NodeFrame, NodeLabel, RecordedMarker, type FlowNode } from "./node-frame";

/** The Actor's reasoning for one step. */
export const ThoughtNode = memo(function ThoughtNode({ id, data }: NodeProps<FlowNode<"thought">>) {
  return (
    <NodeFrame id={id} kind="thought" trial={data.trial} data-step={data.step} data-source={data.callSource ?? undefined} className="border-violet-200 border-l-4 border-l-violet-500 px-3 py-2">
      <FlowHandles />
      <NodeLabel
        className="text-violet-700"
        right={
          <span className="flex items-center gap-1">
            {data.reasoningChars > 0 ? (
              <Badge tone="outline" data-testid="reasoning-badge" title={`A reasoning block (${data.reasoningChars.toLocaleString("en-US")} characters) was taken out of the completion: see it in the inspector. It never reaches later prompts and is never read for actions.`}>
                reasoning
              </Badge>
            ) : null}
            {data.callSource === "cache" ? <CacheMarker /> : data.recordedByAuthors ? <RecordedMarker /> : data.callId === null ? <Badge tone="outline">by a person</Badge> : null}
          </span>
        }
      >
        Thought {data.step}
      </NodeLabel>
      <p className="mt-1 line-clamp-3 text-xs leading-snug text-slate-800">{data.text ? nodeText(data.text) : <em className="text-slate-500">(no thought)</em>}</p>
    </NodeFrame>
  );
});

/** The Actor's action for one step; an unparsable one is shown as such, with the parser's reason. Code actions show their code. */
export const ActionNode = memo(function ActionNode({ id, data }: NodeProps<FlowNode<"action">>) {
  if (data.code && !data.invalid) return <CodeActionNode id={id} data={data} code={data.code} />;
  if (data.invalid) {
    return (
      <NodeFrame
        id={id}
        kind="action"
        trial={data.trial}
        data-step={data.step}
        data-source={data.callSource ?? undefined}
        data-invalid="true"
        className="border-red-300 border-l-4 border-l-red-600 bg-red-50 px-3 py-2"
      >
        <FlowHandles />
        <NodeLabel
          className="text-red-800"
          right={
            <span className="flex items-center gap-1">
              {data.callSource === "cache" ? <CacheMarker /> : null}
              <Badge tone="red">Invalid action</Badge>
            </span>
          }
        >
          Action {data.step}
        </NodeLabel>
        <p className="mt-1 truncate font-mono text-xs text-slate-900">{data.text ? nodeText(data.text) : "(empty)"}</p>
        <p className="truncate text-[11px] text-red-800" title={data.parseError ?? undefined}>
          {data.parseError ?? "The action could not be parsed."}
        </p>
      </NodeFrame>
    );
  }
  return (
    <NodeFrame {...actionFrameProps(id, data)} data-invalid="false">
      <FlowHandles />
      <NodeLabel
        className="text-sky-800"
        right={
          <ActionMarkers data={data}>
            {data.actionType === "Finish" ? <Badge tone="sky">final answer</Badge> : null}
            {data.thought ? (
              <Badge tone="violet" data-testid="thought-action" title="The model's reasoning, written as a think: action (the world answers OK.)">
                thought
              </Badge>
            ) : null}
          </ActionMarkers>
        }
      >
        Action {data.step}
      </NodeLabel>
      <ActionLine data={data} />
    </NodeFrame>
  );
});

/** The parsed action in its family's syntax (view-model `display`), the verb in bold; the bracket form for older view-models. */
function ActionLine({ data }: { data: FlowNode<"action">["data"] }) {
  const [verb, rest] = data.display === undefined ? [data.actionType ?? "", `[${data.argument ?? ""}]`] : splitDisplay(data.display, data.actionType);
  return (
    <p className="mt-1 line-clamp-2 break-words font-mono text-xs leading-snug text-slate-900" data-testid="action-display">
      <span className="font-semibold text-sky-800">{verb}</span>
      {nodeText(rest)}
    </p>
  );
}

/** What the environment answered (for code: the tests kept, or the internal tests' result). */
export const ObservationNode = memo(function ObservationNode({ id, data }: NodeProps<FlowNode<"observation">>) {
  if (data.code) return <CodeObservationNode id={id} data={data} code={data.code} />;
  return (
    <NodeFrame
      id={id}
      kind="observation"
      trial={data.trial}
      data-step={data.step}
      data-done={data.done}
      data-repeats={data.repeats}
      data-no-effect={data.noEffect}
      className={cn(
        "border-slate-200 border-l-4 border-l-teal-600 bg-slate-50 px-3 py-2",
        (data.noEffect || data.repeats >= 2) && "border-l-amber-500",
      )}
    >
      <FlowHandles />
      <NodeLabel
        className="text-teal-800"
        right={
          data.done ? (
            <Badge tone="outline">episode done</Badge>
          ) : data.repeats >= 2 ? (
            <Badge tone="amber" data-testid="loop-badge" title="The same action gave the same observation as the step before">
              loop ×{data.repeats}
            </Badge>
          ) : data.noEffect ? (
            <Badge tone="amber" data-testid="no-effect-badge">no effect</Badge>
          ) : null
        }
      >
        Observation {data.step}
      </NodeLabel>
      <p className="mt-1 line-clamp-3 text-xs leading-snug text-slate-700">{nodeText(data.text)}</p>
      {data.location !== null || data.inventory !== null ? (
        <p className="mt-1 truncate text-[10px] text-slate-500" data-testid="world-state">
          {data.location !== null ? <>at {data.location}</> : null}
          {data.inventory !== null ? <> · holding {data.inventory.length ? data.inventory.join(", ") : "nothing"}</> : null}
        </p>
      ) : null}
    </NodeFrame>
  );
});

