"use client";

import { Panel } from "@xyflow/react";
import { useRunUiStore } from "@/lib/store";

/**
 * The controls over the graph's top-right corner: follow new steps (while the
 * run executes), and for runs of more than two trials how many trials are
 * collapsed, with Expand all / Collapse old trials.
 */
export function GraphPanel({
  live,
  trialCount,
  collapsedCount,
  expandedOld,
  onExpandAll,
  onCollapseOld,
}: {
  live: boolean;
  trialCount: number;
  collapsedCount: number;
  expandedOld: number;
  onExpandAll: () => void;
  onCollapseOld: () => void;
}) {
  const followLive = useRunUiStore((state) => state.followLive);
  const setFollowLive = useRunUiStore((state) => state.setFollowLive);
  const showCollapse = trialCount > 2;
  if (!live && !showCollapse) return null;
  return (
    <Panel position="top-right" className="flex flex-col items-end gap-1.5">
      {live ? (
        <label className="flex items-center gap-2 rounded-md border border-slate-200 bg-white/95 px-2.5 py-1.5 text-xs text-slate-700 shadow-sm">
          <input
            type="checkbox"
            className="switch"
            role="switch"
            checked={followLive}
            onChange={(event) => setFollowLive(event.target.checked)}
            data-testid="follow-live"
          />
          Follow new steps
        </label>
      ) : null}
      {showCollapse ? (
        <div
          className="flex items-center gap-2 rounded-md border border-slate-200 bg-white/95 px-2.5 py-1.5 text-xs text-slate-700 shadow-sm"
          data-testid="trial-collapse-panel"
          data-collapsed={collapsedCount}
        >
          <span aria-live="polite">
            {collapsedCount} of {trialCount} trials collapsed
          </span>
          {collapsedCount > 0 ? (
            <button type="button" onClick={onExpandAll} className="rounded border border-slate-300 px-1.5 py-0.5 font-medium hover:bg-slate-50" data-testid="expand-all-trials">
              Expand all
            </button>
          ) : null}
          {expandedOld > 0 ? (
            <button type="button" onClick={onCollapseOld} className="rounded border border-slate-300 px-1.5 py-0.5 font-medium hover:bg-slate-50" data-testid="collapse-old-trials">
              Collapse old trials
            </button>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}
