"use client";

import type { RunEvent } from "@/lib/domain/events";
import type { TreeNodeView } from "@/lib/domain/tree-search";
import { treeForkPoint } from "@/lib/graph/tree-fork-point";
import { useForkRun } from "@/lib/query";
import { Button } from "@/components/ui/button";

/**
 * "Search only under this node": forks the run at the checkpoint before the trial after the node's
 * (lib/graph/tree-fork-point.ts) with a `tree-focus` edit, so the new branch's selections start at the
 * node. Unchanged model calls are served from the response cache (recorded replay). Says why when
 * the node cannot be forked from.
 */
export function ForkFromNode({
  runId,
  fromBranchId,
  events,
  node,
  onForked,
}: {
  runId: string;
  /** The branch shown (null: the root branch, before the run's record has loaded). */
  fromBranchId: string | null;
  /** The shown branch's events (at the replay cursor, if any). */
  events: readonly RunEvent[];
  node: TreeNodeView;
  onForked: (branchId: string) => void;
}) {
  const fork = useForkRun(runId);
  const point = treeForkPoint(events, node);
  if (point.atSeq === null) {
    return (
      <p className="px-4 pb-4 text-xs text-slate-600" data-testid="tree-fork-unavailable">
        {point.why}
      </p>
    );
  }
  const atSeq = point.atSeq;
  return (
    <div className="space-y-1 px-4 pb-4">
      <Button
        size="sm"
        variant="secondary"
        data-testid="tree-fork-node"
        disabled={fork.isPending}
        onClick={() =>
          fork.mutate(
            { atSeq, fromBranchId, replay: "recorded", edits: [{ kind: "tree-focus", node: node.id, note: `Search only under ${node.id}.` }] },
            { onSuccess: (response) => onForked(response.branchId) },
          )
        }
      >
        {fork.isPending ? "Forking…" : "Search only under this node"}
      </Button>
      <p className="text-xs text-slate-600">A new branch from trial {point.trial} on: every later selection starts here. Calls already made are served from the cache.</p>
      {fork.error ? (
        <p role="alert" className="text-xs text-red-700">
          {fork.error.message}
        </p>
      ) : null}
    </div>
  );
}
