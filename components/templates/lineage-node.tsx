"use client";

import { Handle, Position, type Node, type NodeProps } from "@xyflow/react";
import { createContext, useContext } from "react";
import { pValueText } from "@/lib/domain/stats/p-value";
import type { LineageNode as LineageVersion } from "@/lib/domain/template-lineage";
import { lineageScoreText } from "@/lib/graph/lineage-layout";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils/cn";

/** What a lineage node can do, given by the view (a context, so React Flow's node objects stay plain data). */
export interface LineageActions {
  /** Opens the diff of the version against its parent. */
  diff: (versionId: string) => void;
  /** Points the accept label at the version. */
  accept: (versionId: string) => void;
  /** The label "Accept" sets. */
  acceptLabel: string;
  /** The version the accept label is being moved to, while it moves. */
  accepting: string | null;
}

export const LineageActionsContext = createContext<LineageActions>({ diff: () => {}, accept: () => {}, acceptLabel: "accepted", accepting: null });

/** A version's node: `version` null for the parent it was edited from in another template. */
export type LineageFlowNode = Node<{ version: LineageVersion | null; versionId: string; hasParent: boolean; isRoot: boolean }, "version">;

/** "p = 0.031 vs parent", as every p-value is written (lib/domain/stats/p-value.ts). */
function pText(p: number): string {
  return `${pValueText(p)} vs parent`;
}

/**
 * One node of the lineage tree: "v3", its message, its labels, its held-out
 * score with interval, p against its parent and cost when measured ("not
 * measured" otherwise), a marker on the Pareto front, and its two actions.
 */
export function LineageVersionNode({ data }: NodeProps<LineageFlowNode>) {
  const actions = useContext(LineageActionsContext);
  const { version, versionId, hasParent, isRoot } = data;
  if (version === null) {
    return (
      <div className="flex h-full w-full flex-col justify-center rounded-lg border border-dashed border-slate-400 bg-slate-50 px-3 text-left text-xs text-slate-700" data-testid="lineage-external" data-version-id={versionId}>
        <p className="font-medium">Edited from another template</p>
        <code className="font-mono text-[11px] text-slate-600">{versionId}</code>
        <Handle type="source" position={Position.Bottom} isConnectable={false} />
      </div>
    );
  }
  const score = version.score;
  const accepted = version.labels.includes(actions.acceptLabel);
  return (
    <div
      className={cn(
        "flex h-full w-full flex-col gap-1 overflow-hidden rounded-lg border bg-white px-3 py-2 text-left text-xs text-slate-800 shadow-sm",
        score?.onFront ? "border-violet-500 ring-1 ring-violet-400" : "border-slate-300",
      )}
      data-testid="lineage-node"
      data-version-id={version.versionId}
      data-number={version.number}
      data-on-front={score?.onFront ?? false}
      data-labels={version.labels.join(",")}
    >
      {isRoot ? null : <Handle type="target" position={Position.Top} isConnectable={false} />}
      <div className="flex items-center gap-1.5">
        <span className="text-sm font-semibold text-slate-900">v{version.number}</span>
        {score?.onFront ? (
          <Badge tone="violet" data-testid="lineage-front" title="On the Pareto front over train tasks: no other candidate solves a superset of its tasks">
            ◆ front
          </Badge>
        ) : null}
        {version.labels.map((label) => (
          <Badge key={label} tone={label === actions.acceptLabel ? "green" : "sky"} data-testid="lineage-label">
            {label}
          </Badge>
        ))}
      </div>
      <p className="line-clamp-2 text-slate-700" title={version.message}>
        {version.message || <span className="text-slate-500">(no message)</span>}
      </p>
      <p className="text-slate-700" data-testid="lineage-score">
        {lineageScoreText(version)}
      </p>
      {score ? (
        <p className="text-[11px] text-slate-600">
          {score.pVsParent === null ? "not tested vs parent" : pText(score.pVsParent)} · ${score.costUsd.toFixed(score.costUsd < 1 ? 4 : 2)} · {score.tokens.toLocaleString("en")} tokens
        </p>
      ) : null}
      <div className="nodrag nopan mt-auto flex gap-1.5">
        {hasParent ? (
          <Button size="sm" variant="secondary" className="h-6 px-2 text-[11px]" data-testid="lineage-diff" tabIndex={-1} onClick={() => actions.diff(version.versionId)}>
            Diff against parent
          </Button>
        ) : null}
        <Button
          size="sm"
          variant="secondary"
          className="h-6 px-2 text-[11px]"
          data-testid="lineage-accept"
          // One Tab stop per node: the node itself takes Enter (diff) and A (accept); the buttons are for the pointer.
          tabIndex={-1}
          disabled={accepted || actions.accepting !== null}
          onClick={() => actions.accept(version.versionId)}
          title={accepted ? `Already labelled ${actions.acceptLabel}` : `Point the label "${actions.acceptLabel}" at v${version.number}`}
        >
          {actions.accepting === version.versionId ? "Accepting…" : accepted ? "Accepted" : "Accept"}
        </Button>
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}
