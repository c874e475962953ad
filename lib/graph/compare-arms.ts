import type { ArmResult, ExperimentCell, ExperimentSummary } from "@/lib/domain/experiment";
import { experimentStatusText } from "@/lib/domain/experiment-summary";
import { isLiveStatus } from "@/lib/domain/status";

/**
 * Pure shaping of an experiment's summary (lib/domain/experiment.ts) for the
 * results page: the cumulative success-by-trial curves (Reflexion Fig. 3
 * style), per-arm rates, the task × arm grid and its "differs" filters. The
 * summary is computed on the server from run summaries; nothing here reads a
 * run's log.
 */

/** One arm's point on the curve at one trial: tasks solved at or before it, of how many, as a percentage. */
export interface CurvePoint {
  solved: number;
  tasks: number;
  /** 0–100, rounded to one decimal. */
  percent: number;
  /** The 95 % interval in percent (one decimal), when the summary has one. */
  ci?: [number, number];
}

/**
 * One row of the curve chart's data: the trial (x) and, per arm, its percentage
 * under the key {@link curveKey}(index) (y), with the counts beside it in `points`.
 * An arm whose trial budget is smaller than `trial` has no value there (its line ends).
 */
export interface CurveRow {
  trial: number;
  points: Array<CurvePoint | null>;
  [key: `arm${number}`]: number | undefined;
  /** The arm's 95 % interval at this trial in percent, [lo, hi] (key {@link bandKey}); absent without intervals. */
  [key: `band${number}`]: [number, number] | undefined;
  /** An imported arm's points its logs do not record (key {@link gapKey}), drawn dashed instead of on the arm's line. */
  [key: `gap${number}`]: number | undefined;
}

/** The data key of arm `index`'s unrecorded points in {@link CurveRow}. */
export function gapKey(index: number): `gap${number}` {
  return `gap${index}`;
}

/**
 * The rows with each arm's unrecorded trials (`spans[index]`, inclusive, e.g. from an imported log,
 * lib/domain/paper-curves.ts) moved from its line to its gap key; the gap also holds the first
 * recorded point after the span, so the dashed stretch joins the line.
 */
export function withUnrecordedSpans(rows: readonly CurveRow[], spans: ReadonlyArray<{ fromTrial: number; toTrial: number } | null>): CurveRow[] {
  return rows.map((row) => {
    const next: CurveRow = { ...row };
    spans.forEach((span, index) => {
      if (!span) return;
      const value = row[curveKey(index)];
      if (row.trial >= span.fromTrial && row.trial <= span.toTrial + 1) next[gapKey(index)] = value;
      if (row.trial >= span.fromTrial && row.trial <= span.toTrial) next[curveKey(index)] = undefined;
    });
    return next;
  });
}

/** The data key of arm `index`'s 95 % band in {@link CurveRow}. */
export function bandKey(index: number): `band${number}` {
  return `band${index}`;
}

/** The data key of arm `index` in {@link CurveRow} (arm labels may hold any character, so they are not keys). */
export function curveKey(index: number): `arm${number}` {
  return `arm${index}`;
}

/** Percentage with one decimal; 0 when there are no tasks. */
export function percentOf(solved: number, tasks: number): number {
  return tasks === 0 ? 0 : Math.round((solved / tasks) * 1000) / 10;
}

/**
 * The curves' data: x = trial 1 … the largest trial budget, y = % of the arm's
 * tasks solved at or before that trial (cumulative: `successByTrial`).
 */
export function successCurveRows(arms: readonly Pick<ArmResult, "successByTrial" | "tasks" | "trialsReached" | "successByTrialCI">[]): CurveRow[] {
  const trials = Math.max(0, ...arms.map((arm) => arm.successByTrial.length));
  return Array.from({ length: trials }, (_, index) => {
    const row: CurveRow = { trial: index + 1, points: [] };
    arms.forEach((arm, armIndex) => {
      // Past the trial every run reached (some stopped on their budget) the count is incomplete: not drawn.
      const solved = index < (arm.trialsReached ?? Infinity) ? arm.successByTrial[index] : undefined;
      if (solved === undefined) {
        row.points.push(null);
        return;
      }
      const point: CurvePoint = { solved, tasks: arm.tasks, percent: percentOf(solved, arm.tasks) };
      row.points.push(point);
      row[curveKey(armIndex)] = point.percent;
      const ci = arm.successByTrialCI?.[index];
      if (ci) {
        point.ci = [percentOf(ci[0], arm.tasks), percentOf(ci[1], arm.tasks)];
        row[bandKey(armIndex)] = point.ci;
      }
    });
    return row;
  });
}

/** An arm's success rate at trial 1 and at its last trial (pass@1 / EM / success rate, by family). */
export interface ArmRates {
  first: CurvePoint;
  last: CurvePoint;
  /** The arm's trial budget T (the last trial of the curve). */
  lastTrial: number;
  /** The trial by which the final count was reached ({@link finalReachedAtTrial}): "12/12 by trial 2" when the last task was solved at trial 2 of 3. */
  reachedAtTrial: number;
}

/**
 * The first trial (1-based) at which a cumulative success curve reached its
 * final value: the trial "by" which everything the arm solves was solved.
 * 0 for an empty curve; the last trial when nothing was solved ("0/3 by
 * trial 3": every trial was tried). The curve is cumulative (never
 * decreasing) for one repetition; with repetitions it is a mean, compared
 * within 1e-9.
 */
export function finalReachedAtTrial(successByTrial: readonly number[]): number {
  const last = successByTrial.at(-1);
  if (last === undefined) return 0;
  if (Math.abs(last) < 1e-9) return successByTrial.length;
  return successByTrial.findIndex((value) => Math.abs(value - last) < 1e-9) + 1;
}

/**
 * Groups of arms (indices, each group in arm order, only groups of two or
 * more) whose success-by-trial curves coincide: the same tasks and the same
 * value at every trial, so their lines lie on top of each other.
 */
export function coincidentArms(arms: readonly Pick<ArmResult, "successByTrial" | "tasks">[]): number[][] {
  const groups = new Map<string, number[]>();
  arms.forEach((arm, index) => {
    if (arm.successByTrial.length === 0) return;
    const key = `${arm.tasks}:${arm.successByTrial.map((value) => percentOf(value, arm.tasks)).join(",")}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  return [...groups.values()].filter((group) => group.length > 1);
}

/** "A and B coincide", "A, B and C coincide": the legend's note for a {@link coincidentArms} group. */
export function coincideText(labels: readonly string[]): string {
  const names = labels.length <= 2 ? labels.join(" and ") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
  return `${names} coincide`;
}

/** {@link ArmRates} of an arm, from its cumulative `successByTrial`. */
export function armRates(arm: Pick<ArmResult, "successByTrial" | "tasks" | "trials" | "successByTrialCI">): ArmRates {
  const first = arm.successByTrial[0] ?? 0;
  const last = arm.successByTrial.at(-1) ?? 0;
  const ciAt = (index: number): Pick<CurvePoint, "ci"> => {
    const ci = arm.successByTrialCI?.[index];
    return ci ? { ci: [percentOf(ci[0], arm.tasks), percentOf(ci[1], arm.tasks)] } : {};
  };
  return {
    first: { solved: first, tasks: arm.tasks, percent: percentOf(first, arm.tasks), ...ciAt(0) },
    last: { solved: last, tasks: arm.tasks, percent: percentOf(last, arm.tasks), ...ciAt(arm.successByTrial.length - 1) },
    lastTrial: arm.successByTrial.length || arm.trials,
    reachedAtTrial: finalReachedAtTrial(arm.successByTrial) || arm.trials,
  };
}

/** What a grid cell shows, in words (never colour alone). */
export interface CellView {
  /** Short text: `✓ t2`, `✗ failed`, `cancelled`, `running t3`, `queued`, … */
  text: string;
  /** For the colour and the test id. */
  tone: "solved" | "failed" | "cancelled" | "live" | "paused" | "error";
  /** A sentence for the cell's title / accessible name. */
  description: string;
}

/** The label of one (task, arm) cell: the trial of first success, else the outcome or the run's status. */
export function cellView(cell: Pick<ExperimentCell, "solvedAtTrial" | "outcome" | "status" | "trials" | "falsePositive" | "halts">): CellView {
  if (cell.solvedAtTrial !== null) {
    return { text: `✓ t${cell.solvedAtTrial}`, tone: "solved", description: `Solved at trial ${cell.solvedAtTrial}` };
  }
  if (cell.outcome === "failure") {
    const why = cell.falsePositive ? " (false positive: internal tests passed, hidden tests failed)" : cell.halts > 0 ? ` (${cell.halts} halted)` : "";
    return { text: cell.falsePositive ? "✗ false +" : "✗ failed", tone: "failed", description: `Not solved in ${cell.trials} ${cell.trials === 1 ? "trial" : "trials"}${why}` };
  }
  if (cell.outcome === "cancelled") return { text: "cancelled", tone: "cancelled", description: `Cancelled after ${cell.trials} ${cell.trials === 1 ? "trial" : "trials"}` };
  if (cell.status === "error") return { text: "error", tone: "error", description: "The run stopped with an error; open it to read why" };
  if (cell.status === "paused") return { text: "paused", tone: "paused", description: "Paused (e.g. a provider error); open it or press Resume" };
  // The run's budget is spent; the experiment continues with a larger budget.
  if (cell.status === "budget-exhausted") return { text: "budget", tone: "paused", description: "Budget exhausted: continue the experiment with a larger budget" };
  if (cell.status === "queued") return { text: "queued", tone: "live", description: "Waiting for a free worker" };
  if (isLiveStatus(cell.status)) {
    const trial = cell.trials + 1;
    return { text: `${cell.status === "interrupted" ? "interrupted" : "running"} t${trial}`, tone: "live", description: `In trial ${trial}` };
  }
  return { text: "ended", tone: "failed", description: "Ended" };
}

/** One task's row of the grid: its cells in arm order (null where the cell has no run yet). */
export interface GridRow {
  taskId: string;
  cells: Array<ExperimentCell | null>;
}

/** The grid's rows, in the experiment's task order, with cells in arm order: repetition `repetition` (default 1) of each. */
export function gridRows(summary: Pick<ExperimentSummary, "experiment" | "cells">, repetition = 1): GridRow[] {
  const { taskIds, arms } = summary.experiment.definition;
  const byKey = new Map(summary.cells.filter((cell) => (cell.repetition ?? 1) === repetition).map((cell) => [`${cell.taskId}\u0000${cell.arm}`, cell]));
  return taskIds.map((taskId) => ({ taskId, cells: arms.map((arm) => byKey.get(`${taskId}\u0000${arm.label}`) ?? null) }));
}

/** The grid's filter: every task, or the tasks arm `a` solved and arm `b` did not (arm indices). */
export type GridFilter = { kind: "all" } | { kind: "differs"; solvedBy: number; notBy: number };

const solved = (cell: ExperimentCell | null | undefined) => cell?.solvedAtTrial != null;

/** The rows a filter keeps; a text `query` also narrows by task id (case-insensitive substring). */
export function filterGridRows(rows: readonly GridRow[], filter: GridFilter, query = ""): GridRow[] {
  const needle = query.trim().toLowerCase();
  return rows.filter((row) => {
    if (needle && !row.taskId.toLowerCase().includes(needle)) return false;
    if (filter.kind === "all") return true;
    return solved(row.cells[filter.solvedBy]) && !solved(row.cells[filter.notBy]);
  });
}

/** How many tasks arm `a` solved that arm `b` did not, and the reverse (for the filter buttons). */
export function differsCounts(rows: readonly GridRow[], a: number, b: number): { aNotB: number; bNotA: number } {
  let aNotB = 0;
  let bNotA = 0;
  for (const row of rows) {
    const sa = solved(row.cells[a]);
    const sb = solved(row.cells[b]);
    if (sa && !sb) aNotB += 1;
    if (sb && !sa) bNotA += 1;
  }
  return { aNotB, bNotA };
}

/** Progress in words: `k/n runs · ETA 12 s` (or `· done`). `formatEta` renders the ms. */
export function progressText(progress: ExperimentSummary["progress"], status: ExperimentSummary["status"], formatEta: (ms: number) => string): string {
  const runs = `${progress.done}/${progress.total} runs`;
  if (status === "cancelled") return `${runs} · cancelled`;
  if (status === "stopped") return `${runs} · ${experimentStatusText({ status, progress })}`;
  if (progress.total > 0 && progress.done >= progress.total) return `${runs} · done`;
  if (progress.etaMs === null) return `${runs} · ETA after the first run ends`;
  return `${runs} · ETA ${formatEta(progress.etaMs)}`;
}

/**
 * Where each arm's end label goes when several lines end at the same value:
 * 0 for the first arm at a value, 1 for the next, … (the chart stacks the
 * labels by this rank so they never print on top of each other).
 */
export function endLabelRanks(arms: readonly Pick<ArmResult, "successByTrial" | "tasks">[]): number[] {
  const seen = new Map<string, number>();
  return arms.map((arm) => {
    const last = arm.successByTrial.length;
    const key = `${last}:${percentOf(arm.successByTrial.at(-1) ?? 0, arm.tasks)}`;
    const rank = seen.get(key) ?? 0;
    seen.set(key, rank + 1);
    return rank;
  });
}
