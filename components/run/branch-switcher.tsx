"use client";

import type { BranchSummary, RunStatus } from "@/lib/domain/api";
import { branchLabel, type BranchTreeRow } from "@/lib/graph";
import { useRunUiStore } from "@/lib/store";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/lib/utils/cn";

const STATUS_TONE: Record<RunStatus, BadgeTone> = {
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

function statusText(branch: BranchSummary): string {
  if (branch.status === "ended" && branch.outcome) return `ended · ${branch.outcome}`;
  return branch.status;
}

/**
 * Picks the branch the page shows (a native select: keyboard and screen
 * readers for free). Each option says where the branch comes from and its status.
 */
export function BranchSwitcher({ rows, current, onSelect }: { rows: readonly BranchTreeRow[]; current: string | null; onSelect: (branchId: string) => void }) {
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
            {`${"\u00a0\u00a0".repeat(row.depth)}${branchLabel(row)} — ${row.branch.parentBranchId === null ? "" : `seq ${row.branch.forkSeq ?? "?"} · ${row.branch.reason} · `}${statusText(row.branch)}`}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The run's branches as a small indented tree over the graph: the root, each
 * fork under its parent with its fork seq, reason, replay mode, status and
 * the live / cached model calls it made itself. Click a row to show it.
 */
export function BranchTree({ rows, current, onSelect }: { rows: readonly BranchTreeRow[]; current: string | null; onSelect: (branchId: string) => void }) {
  const open = useRunUiStore((store) => store.branchTreeOpen);
  const setOpen = useRunUiStore((store) => store.setBranchTreeOpen);
  if (rows.length === 0) return null;
  return (
    <div className="pointer-events-auto w-80 max-w-[calc(100%-1.5rem)] rounded-lg border border-slate-200 bg-white/95 text-xs shadow-sm backdrop-blur" data-testid="branch-tree-card">
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 px-2.5 py-1.5 text-left font-semibold text-slate-800"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="branch-tree-toggle"
      >
        <span>
          Branches <span className="font-normal text-slate-500">({rows.length})</span>
        </span>
        <span aria-hidden className="text-slate-500">{open ? "▾" : "▸"}</span>
      </button>
      {open ? (
        <>
          <ul data-testid="branch-tree" aria-label="Branches of this run" className="max-h-56 space-y-0.5 overflow-y-auto border-t border-slate-100 px-1.5 py-1.5">
            {rows.map((row) => {
              const branch = row.branch;
              const selected = branch.id === current;
              return (
                <li key={branch.id} style={{ paddingLeft: `${row.depth * 14}px` }}>
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
                      "w-full rounded-md border px-2 py-1 text-left transition-colors",
                      selected ? "border-sky-400 bg-sky-50" : "border-transparent hover:border-slate-200 hover:bg-slate-50",
                    )}
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="font-medium text-slate-900">
                        {row.depth > 0 ? <span aria-hidden className="mr-1 text-slate-400">└</span> : null}
                        {branchLabel(row)}
                      </span>
                      <Badge tone={STATUS_TONE[branch.status]} data-testid="branch-tree-status">
                        {statusText(branch)}
                      </Badge>
                    </span>
                    <span className="mt-0.5 block text-[11px] text-slate-600">
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
                  </button>
                </li>
              );
            })}
          </ul>
          {rows.length === 1 ? (
            <p className="border-t border-slate-100 px-2.5 py-1.5 text-[11px] text-slate-500">
              Select an evaluation or reflection node and use <strong>Fork here</strong> to try another path from that point.
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
