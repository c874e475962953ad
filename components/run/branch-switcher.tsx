"use client";

import { branchStatusText, type ShownStatus } from "@/lib/domain/shown-status";
import { branchLabel, type BranchTreeRow } from "@/lib/graph";
import type { ShownBranchSummary } from "@/components/replay/view-at-cursor";
import { useRunUiStore } from "@/lib/store";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";

const STATUS_TONE: Record<ShownStatus, BadgeTone> = {
  replaying: "neutral",
  queued: "neutral",
  running: "sky",
  pausing: "amber",
  cancelling: "red",
  paused: "amber",
  ended: "neutral",
  error: "red",
  interrupted: "amber",
  "budget-exhausted": "red",
};

/**
 * Picks the branch the page shows (a native select: keyboard and screen
 * readers for free). Each option says where the branch comes from and its status.
 */
export function BranchSwitcher({ rows, current, onSelect }: { rows: readonly BranchTreeRow<ShownBranchSummary>[]; current: string | null; onSelect: (branchId: string) => void }) {
  if (rows.length === 0 || current === null) return null;
  return (
    <label className="flex items-center gap-1.5 text-xs text-slate-700">
      <span className="font-medium">Branch</span>
      <select
        data-testid="branch-switcher"
        value={current}
        onChange={(event) => onSelect(event.target.value)}
        className="h-7 max-w-72 rounded-md border border-slate-300 bg-white px-1.5 text-xs text-slate-900 focus:border-sky-600 focus:outline-none focus:ring-1 focus:ring-sky-600"
      >
        {rows.map((row) => (
          <option key={row.branch.id} value={row.branch.id} data-testid={`branch-option-${row.branch.id}`}>
            {`${"\u00a0\u00a0".repeat(row.depth)}${branchLabel(row)} — ${row.branch.parentBranchId === null ? "" : `seq ${row.branch.forkSeq ?? "?"} · ${row.branch.reason} · `}${branchStatusText(row.branch)}`}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The run's branches as a strip docked above the graph (never over it, so no
 * lane header is ever covered): a toggle, then one card per
 * branch in tree order (a fork after its parent, marked └ with its depth), each
 * with its fork seq, reason, replay mode, status and the live / cached model
 * calls it made itself. Click a card to show that branch. `noForkHint` replaces the "Fork here" hint
 * on a run that cannot be forked (an imported trace).
 */
export function BranchTree({ rows, current, onSelect, noForkHint = null }: { rows: readonly BranchTreeRow<ShownBranchSummary>[]; current: string | null; onSelect: (branchId: string) => void; noForkHint?: string | null }) {
  const open = useRunUiStore((store) => store.branchTreeOpen);
  const setOpen = useRunUiStore((store) => store.setBranchTreeOpen);
  if (rows.length === 0) return null;
  return (
    <div className="flex flex-none flex-wrap items-start gap-x-2 gap-y-1 border-b border-slate-200 bg-white px-2 py-1 text-xs" data-testid="branch-tree-card">
      <button
        type="button"
        className="flex flex-none items-center gap-1.5 rounded-md px-1.5 py-1 text-left font-semibold text-slate-800 hover:bg-slate-100"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="branch-tree-toggle"
      >
        <span aria-hidden className="text-slate-500">{open ? "▾" : "▸"}</span>
        <span>
          Branches <span className="font-normal text-slate-500">({rows.length})</span>
        </span>
      </button>
      {open ? (
        <>
          <ul
            data-testid="branch-tree"
            aria-label="Branches of this run"
            className={cn("flex max-h-24 min-w-0 flex-wrap gap-1 overflow-y-auto", rows.length === 1 ? "max-w-full flex-none" : "flex-1")}
          >
            {rows.map((row) => {
              const branch = row.branch;
              const selected = branch.id === current;
              return (
                <li key={branch.id} className="min-w-0 max-w-full">
                  <button
                    type="button"
                    data-testid="branch-tree-item"
                    data-branch-id={branch.id}
                    data-depth={row.depth}
                    data-status={branch.status}
                    data-current={selected || undefined}
                    aria-current={selected ? "true" : undefined}
                    onClick={() => onSelect(branch.id)}
                    className={cn(
                      "max-w-full rounded-md border px-2 py-0.5 text-left transition-colors",
                      selected ? "border-sky-400 bg-sky-50" : "border-slate-200 hover:bg-slate-50",
                    )}
                  >
                    <span className="flex flex-wrap items-center gap-x-2 sm:flex-nowrap sm:whitespace-nowrap">
                      <span className="font-medium text-slate-900">
                        {row.depth > 0 ? <span aria-hidden className="mr-1 text-slate-400">{"\u00a0".repeat(row.depth - 1)}└</span> : null}
                        {branchLabel(row)}
                      </span>
                      <Badge tone={STATUS_TONE[branch.status]} data-testid="branch-tree-status">
                        {branchStatusText(branch)}
                      </Badge>
                      <span className="text-[11px] text-slate-600">
                        {branch.parentBranchId === null ? (
                          "root"
                        ) : (
                          <>
                            from seq <span className="tabular-nums" data-testid="branch-tree-fork-seq">{branch.forkSeq}</span> · {branch.reason} · {branch.replayMode}
                          </>
                        )}
                        {" · "}
                        {branch.trials} {branch.trials === 1 ? "trial" : "trials"}
                        {" · "}
                        <span data-testid="branch-tree-calls" title="Model calls this branch made itself (not inherited): live, and served from the replay cache">
                          {branch.liveCalls} live / {branch.cachedCalls} cached
                        </span>
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          {rows.length === 1 ? (
            <p className="hidden min-w-0 flex-1 self-center truncate px-1.5 text-[11px] text-slate-500 md:block">
              {noForkHint ?? (
                <>
                  Select an evaluation or reflection node and use <strong>Fork here</strong> to try another path from that point.
                </>
              )}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
