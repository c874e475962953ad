"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { memo, useId, useMemo, useRef, useState } from "react";
import { ExperimentBudget } from "@/components/costs/experiment-costs";
import type { Arm, ExperimentSummary } from "@/lib/domain/experiment";
import { cellView, differsCounts, filterGridRows, gridRows, type CellView, type GridFilter, type GridRow } from "@/lib/graph/compare-arms";
import { compareHref } from "@/lib/query/compare-params";
import { inputClass } from "@/components/home/form-field";
import { cn } from "@/lib/utils/cn";
import { ArmSwatch } from "./labels";

const ROW_HEIGHT = 44;
/** Height of the scrolling body: about ten rows; more rows scroll (and only those in view are rendered). */
const BODY_HEIGHT = 440;

const toneClass: Record<CellView["tone"], string> = {
  solved: "bg-green-50 text-green-900 ring-green-300",
  failed: "bg-red-50 text-red-900 ring-red-200",
  cancelled: "bg-slate-100 text-slate-600 ring-slate-300",
  live: "bg-sky-50 text-sky-900 ring-sky-200",
  paused: "bg-amber-50 text-amber-950 ring-amber-300",
  error: "bg-red-100 text-red-900 ring-red-400",
};

/**
 * The per-task grid: one row per task, one cell per arm ("✓ t2" = first solved
 * at trial 2, else the outcome or the run's status); a cell opens its run, the
 * row's last link opens the arms' runs side by side. "Differs" filters keep the
 * tasks one arm solved and another did not. Rows are virtualised, so an
 * experiment of hundreds of tasks scrolls smoothly.
 */
export function TaskGrid({ summary, titles }: { summary: ExperimentSummary; titles: ReadonlyMap<string, string> }) {
  const arms = summary.experiment.definition.arms;
  const rows = useMemo(() => gridRows(summary), [summary]);
  const [filterKind, setFilterKind] = useState<"all" | "a-not-b" | "b-not-a">("all");
  const [a, setA] = useState(0);
  const [b, setB] = useState(Math.min(1, arms.length - 1));
  const [query, setQuery] = useState("");
  const ids = { a: useId(), b: useId(), search: useId() };
  const counts = differsCounts(rows, a, b);
  const filter: GridFilter = filterKind === "all" ? { kind: "all" } : filterKind === "a-not-b" ? { kind: "differs", solvedBy: a, notBy: b } : { kind: "differs", solvedBy: b, notBy: a };
  // Cheap (a pass over the rows), so it is not memoised.
  const visible = filterGridRows(rows, filter, query);
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's API is not memoisable by the compiler; this component re-renders with it
  const virtualizer = useVirtualizer({ count: visible.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const columns = `minmax(16rem, 2.2fr) repeat(${arms.length}, minmax(6.5rem, 1fr)) 9rem`;
  const labelA = arms[a]?.label ?? "";
  const labelB = arms[b]?.label ?? "";
  const sameArm = a === b;

  const filterButton = (kind: typeof filterKind, text: string, count: number) => (
    <button
      type="button"
      role="radio"
      aria-checked={filterKind === kind}
      data-testid={`grid-filter-${kind}`}
      onClick={() => setFilterKind(kind)}
      disabled={kind !== "all" && sameArm}
      className={cn(
        "rounded-md border px-2.5 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sky-600 disabled:cursor-not-allowed disabled:opacity-50",
        filterKind === kind ? "border-slate-900 bg-slate-900 text-white" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
      )}
    >
      {text} <span className="tabular-nums">({count})</span>
    </button>
  );

  return (
    <div className="space-y-3" data-testid="task-grid">
      <ExperimentBudget summary={summary} />
      <div className="flex flex-wrap items-center gap-2">
        <div role="radiogroup" aria-label="Which tasks to show" className="flex flex-wrap gap-1.5">
          {filterButton("all", "All tasks", rows.length)}
          {arms.length > 1 ? filterButton("a-not-b", `${labelA} solved, ${labelB} did not`, counts.aNotB) : null}
          {arms.length > 1 ? filterButton("b-not-a", `${labelB} solved, ${labelA} did not`, counts.bNotA) : null}
        </div>
        {arms.length > 2 ? (
          <span className="flex items-center gap-1.5 text-xs text-slate-700">
            <label htmlFor={ids.a}>Arm A</label>
            <select id={ids.a} className={cn(inputClass, "w-auto py-1 text-xs")} value={a} onChange={(event) => setA(Number(event.target.value))}>
              {arms.map((arm, index) => (
                <option key={arm.label} value={index}>
                  {arm.label}
                </option>
              ))}
            </select>
            <label htmlFor={ids.b}>Arm B</label>
            <select id={ids.b} className={cn(inputClass, "w-auto py-1 text-xs")} value={b} onChange={(event) => setB(Number(event.target.value))}>
              {arms.map((arm, index) => (
                <option key={arm.label} value={index}>
                  {arm.label}
                </option>
              ))}
            </select>
          </span>
        ) : null}
        <input
          id={ids.search}
          type="search"
          aria-label="Filter tasks by id"
          placeholder="Filter by task id…"
          className={cn(inputClass, "ml-auto w-56 py-1 text-xs")}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>

      <div
        role="table"
        aria-label="Tasks by arm"
        aria-rowcount={visible.length + 1}
        className="overflow-x-auto rounded-md border border-slate-200"
        data-testid="task-grid-table"
        data-rows={visible.length}
      >
        <div className="min-w-fit">
          <div role="rowgroup">
            <div role="row" aria-rowindex={1} className="grid border-b border-slate-200 bg-slate-50 text-[11px] font-semibold uppercase tracking-wide text-slate-500" style={{ gridTemplateColumns: columns }}>
              <span role="columnheader" className="px-3 py-2">Task</span>
              {arms.map((arm, index) => (
                <span key={arm.label} role="columnheader" className="flex items-center gap-1.5 px-2 py-2 normal-case tracking-normal text-slate-700">
                  <ArmSwatch index={index} /> {arm.label}
                </span>
              ))}
              <span role="columnheader" className="px-2 py-2">Side by side</span>
            </div>
          </div>
          <div ref={scroller} role="rowgroup" className="overflow-y-auto" style={{ maxHeight: BODY_HEIGHT }} data-testid="task-grid-body">
            {visible.length === 0 ? (
              <p className="px-3 py-6 text-center text-sm text-slate-500" data-testid="task-grid-empty">
                {filterKind === "all" ? (query ? "No task id matches the filter." : "No runs yet.") : "No task fits this filter (yet)."}
              </p>
            ) : (
              <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
                {virtualizer.getVirtualItems().map((item) => (
                  <TaskRowView
                    key={visible[item.index]!.taskId}
                    row={visible[item.index]!}
                    rowIndex={item.index}
                    start={item.start}
                    size={item.size}
                    arms={arms}
                    columns={columns}
                    title={titles.get(visible[item.index]!.taskId)}
                  />
                ))}
              </div>
            )}
          </div>
        </div>
      </div>
      <p className="text-[11px] text-slate-500">
        ✓ t<i>k</i> = first solved at trial <i>k</i>; ✗ failed = not solved within the trial budget; ✗ false + = a false positive (code). Green, red and
        blue back the same words.
      </p>
    </div>
  );
}

/**
 * One task's row, memoised: while the grid scrolls only rows entering the view
 * render (a row's props stay equal while the summary does not change).
 */
const TaskRowView = memo(function TaskRowView({
  row,
  rowIndex,
  start,
  size,
  arms,
  columns,
  title,
}: {
  row: GridRow;
  rowIndex: number;
  start: number;
  size: number;
  arms: readonly Arm[];
  columns: string;
  title: string | undefined;
}) {
  const runIds = row.cells.flatMap((cell) => (cell ? [cell.runId] : []));
  return (
    <div
      role="row"
      aria-rowindex={rowIndex + 2}
      data-testid="task-row"
      data-task-id={row.taskId}
      className="absolute left-0 top-0 grid w-full items-center border-b border-slate-100 hover:bg-slate-50"
      style={{ gridTemplateColumns: columns, height: size, transform: `translateY(${start}px)` }}
    >
      <span role="rowheader" className="min-w-0 px-3">
        <span className="block truncate font-mono text-xs text-slate-900">{row.taskId}</span>
        {title ? (
          <span className="block truncate text-[11px] text-slate-500" title={title}>
            {title}
          </span>
        ) : null}
      </span>
      {row.cells.map((cell, index) => {
        const label = arms[index]?.label ?? "";
        if (!cell) {
          return (
            <span key={label} role="cell" className="px-2 text-xs text-slate-500">
              no run yet
            </span>
          );
        }
        const view = cellView(cell);
        return (
          <span key={label} role="cell" className="px-2">
            <Link
              href={`/runs/${encodeURIComponent(cell.runId)}`}
              prefetch={false}
              data-testid="grid-cell"
              data-arm={label}
              data-tone={view.tone}
              aria-label={`${view.text}: ${row.taskId}, ${label}, ${view.description}. Open the run.`}
              title={`${view.description} — open the run`}
              className={cn(
                "inline-flex min-w-16 justify-center rounded px-2 py-1 text-xs font-semibold ring-1 ring-inset hover:underline focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sky-600",
                toneClass[view.tone],
              )}
            >
              {view.text}
            </Link>
          </span>
        );
      })}
      <span role="cell" className="px-2">
        {runIds.length >= 2 ? (
          <Link
            href={compareHref(runIds)}
            prefetch={false}
            data-testid="grid-compare"
            aria-label={`Compare ${runIds.length} runs → ${arms.map((arm) => arm.label).join(" vs ")} on ${row.taskId}, side by side`}
            className="text-xs font-medium text-sky-800 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600"
          >
            Compare {runIds.length} runs →
          </Link>
        ) : (
          <span className="text-[11px] text-slate-500">needs two runs</span>
        )}
      </span>
    </div>
  );
});
