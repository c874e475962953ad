import type { BranchSummaryState, RoleTotals } from "./branch-summary";
import { repeatsOf, type ArmResult, type ExperimentCell, type ExperimentRecord, type ExperimentSummary } from "./experiment";
import type { RunStatus } from "./status";
import { successCurveWithIntervals, type ArmUnit } from "./experiment-intervals";
import { allPairedComparisons } from "./experiment-tests";
import { passAtKCurve } from "./stats/pass-at-k";
import { BOOTSTRAP_SEED, DEFAULT_RESAMPLES, PREVIEW_RESAMPLES } from "./stats/bootstrap";

/** One cell's inputs: its run's root-branch summary and status (from the read model, never a full log). */
export interface CellInput {
  taskId: string;
  /** The arm's label. */
  arm: string;
  /** 1-based repetition (lib/domain/experiment-cells.ts); absent = 1. */
  repetition?: number;
  runId: string;
  summary: BranchSummaryState;
  status: RunStatus;
  /**
   * QA: the F1 of each evaluated trial of the cell's run (index k = trial k + 1),
   * from `evaluation-end.details.f1` (lib/environments/qa/f1.ts); absent when
   * the caller has none (other families, evaluations recorded without F1).
   */
  f1ByTrial?: ReadonlyArray<number>;
}

/**
 * The trial at which a run first succeeded, or null. A run stops at its first
 * success (paper §3), so a successful run succeeded at its last trial; for code
 * the run's outcome is the last trial's hidden verdict (pass@1).
 */
export function solvedAtTrial(summary: BranchSummaryState): number | null {
  return summary.outcome === "success" && summary.trialsEnded > 0 ? summary.trialsEnded : null;
}

/** USD of a role's calls, or null when any of them has no known price. */
function roleCost(totals: RoleTotals): number | null {
  return totals.unpricedCalls > 0 ? null : totals.costUsd;
}

function sumOrNull(values: Array<number | null>): number | null {
  let total = 0;
  for (const value of values) {
    if (value === null) return null;
    total += value;
  }
  return total;
}

/** A cell's cost in USD (Actor, Evaluator and Self-Reflection), or null when a call had no known price. */
export function cellCostUsd(summary: BranchSummaryState): number | null {
  return sumOrNull([roleCost(summary.byRole.actor), roleCost(summary.byRole.evaluator), roleCost(summary.byRole.reflector)]);
}

/** The statistics' view of a cell (lib/domain/experiment-intervals.ts). */
export function armUnitOf(cell: CellInput): ArmUnit {
  return { taskId: cell.taskId, repetition: cell.repetition ?? 1, solvedAtTrial: solvedAtTrial(cell.summary), ended: cell.summary.status === "ended", costUsd: cellCostUsd(cell.summary) };
}

/** `successByTrial[k]`: cells solved at or before trial k + 1, for k < trials (cumulative, the paper's Fig. 3–4). */
export function successByTrial(solved: ReadonlyArray<number | null>, trials: number): number[] {
  return Array.from({ length: trials }, (_, k) => solved.filter((trial) => trial !== null && trial <= k + 1).length);
}

/**
 * `meanF1ByTrial[k]` over the cells that carry F1: trial k + 1's F1 where the run
 * got that far, its last trial's F1 where it ended earlier (stopped at a success
 * or by its budget), and no contribution from a run still short of trial k + 1.
 * Null at a trial no cell contributes to; undefined when no cell carries F1.
 */
export function meanF1ByTrial(cells: ReadonlyArray<{ f1ByTrial?: ReadonlyArray<number>; ended: boolean }>, trials: number): Array<number | null> | undefined {
  const scored = cells.filter((cell) => cell.f1ByTrial !== undefined && cell.f1ByTrial.length > 0);
  if (scored.length === 0) return undefined;
  return Array.from({ length: trials }, (_, k) => {
    const values: number[] = [];
    for (const cell of scored) {
      const f1 = cell.f1ByTrial ?? [];
      const value = k < f1.length ? f1[k] : cell.ended ? f1.at(-1) : undefined;
      if (value !== undefined) values.push(value);
    }
    return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  });
}

function armResult(record: ExperimentRecord, family: SummaryFamilyTraits, label: string, cells: readonly CellInput[], resamples: number): ArmResult {
  const definition = record.definition;
  const arm = definition.arms.find((candidate) => candidate.label === label);
  if (!arm) throw new Error(`experiment ${record.id} has no arm "${label}"`);
  const trials = arm.maxTrials ?? definition.maxTrials;
  const solved = cells.map((cell) => solvedAtTrial(cell.summary));
  const acting = sumOrNull(cells.map((cell) => roleCost(cell.summary.byRole.actor)));
  const reflecting = sumOrNull(cells.map((cell) => roleCost(cell.summary.byRole.reflector)));
  // An LLM judge's calls (role `evaluator`) are "evaluating".
  const evaluating = sumOrNull(cells.map((cell) => roleCost(cell.summary.byRole.evaluator)));
  const solvedCosts = cells
    .filter((cell) => solvedAtTrial(cell.summary) !== null)
    .map((cell) => sumOrNull([roleCost(cell.summary.byRole.actor), roleCost(cell.summary.byRole.evaluator), roleCost(cell.summary.byRole.reflector)]));
  const solvedTotal = sumOrNull(solvedCosts);
  const repeats = repeatsOf(definition);
  const tasks = definition.taskIds.length;
  const curve = successCurveWithIntervals(cells.map(armUnitOf), tasks, repeats, trials, BOOTSTRAP_SEED, resamples);
  const costUsd = sumOrNull([acting, evaluating, reflecting]);
  const solvedRuns = solved.filter((trial) => trial !== null).length;
  return {
    label,
    strategy: arm.strategy,
    modelId: arm.modelId,
    tasks,
    trials,
    repeats,
    successByTrial: repeats <= 1 ? successByTrial(solved, trials) : curve.mean,
    successByTrialCI: curve.ci,
    intervalMethod: curve.method,
    costPerSolvedUsd: costUsd === null || solvedRuns === 0 ? null : costUsd / solvedRuns,
    ...passAtKOf(record, family, cells, repeats),
    finished: cells.filter((cell) => cell.summary.status === "ended").length,
    calls: {
      live: cells.reduce((n, cell) => n + cell.summary.own.liveCalls, 0),
      cached: cells.reduce((n, cell) => n + cell.summary.own.cachedCalls, 0),
    },
    tokens: {
      input: cells.reduce((n, cell) => n + cell.summary.totals.inputTokens, 0),
      output: cells.reduce((n, cell) => n + cell.summary.totals.outputTokens, 0),
    },
    costUsd,
    costByRole: { acting, evaluating, reflecting },
    costToFirstSuccessUsd: solvedCosts.length === 0 || solvedTotal === null ? null : solvedTotal / solvedCosts.length,
    falsePositives: cells.filter((cell) => cell.summary.status === "ended" && cell.summary.lastFalsePositive).length,
    halts: cells.reduce((n, cell) => n + cell.summary.halts, 0),
    ...optionalF1(meanF1ByTrial(cells.map((cell) => ({ f1ByTrial: cell.f1ByTrial, ended: cell.summary.status === "ended" })), trials)),
    ...trialsReachedOf(cells, trials),
  };
}

/**
 * A family with hidden tests, with repeats: pass@k (k = 1 … R, Chen et al. 2021) over the tasks whose
 * R repetitions all ended, c = the repetitions that passed the hidden tests.
 */
function passAtKOf(record: ExperimentRecord, family: SummaryFamilyTraits, cells: readonly CellInput[], repeats: number): Pick<ArmResult, "passAtK"> {
  if (!family.hiddenTests || repeats <= 1) return {};
  const correct: number[] = [];
  for (const taskId of record.definition.taskIds) {
    const runs = cells.filter((cell) => cell.taskId === taskId && cell.summary.status === "ended");
    if (runs.length === repeats) correct.push(runs.filter((cell) => solvedAtTrial(cell.summary) !== null).length);
  }
  return correct.length === 0 ? {} : { passAtK: passAtKCurve(correct, repeats) };
}

/** `trialsReached` when some runs stopped on their budget: the fewest trials a run of the arm got through. */
function trialsReachedOf(cells: readonly CellInput[], trials: number): Pick<ArmResult, "trialsReached"> {
  if (!cells.some((cell) => cell.status === "budget-exhausted")) return {};
  return { trialsReached: Math.min(trials, ...cells.map((cell) => (cell.status === "budget-exhausted" ? cell.summary.trialsEnded : trials))) };
}

/**
 * The status in words for people: "running", "ended", "cancelled", or for a stopped experiment
 * "stopped: 2 runs out of budget — Continue with a larger budget".
 */
export function experimentStatusText(summary: Pick<ExperimentSummary, "status" | "progress">): string {
  if (summary.status !== "stopped") return summary.status;
  const n = summary.progress.outOfBudget ?? 0;
  return `stopped: ${n} run${n === 1 ? "" : "s"} out of budget — Continue with a larger budget`;
}

function optionalF1(values: Array<number | null> | undefined): Pick<ArmResult, "meanF1ByTrial"> {
  return values === undefined ? {} : { meanF1ByTrial: values };
}

/**
 * What the summary needs to know about the experiment's task family. lib/domain does not read the
 * families (lib/environments), so the caller passes the family's descriptor, which has these fields.
 */
export interface SummaryFamilyTraits {
  /**
   * The family's Evaluator reports hidden tests (FamilyDescriptor.hiddenTests): with repeats, each
   * arm gets pass@k over them (paper §4.3; Chen et al. 2021).
   */
  hiddenTests: boolean;
}

/**
 * An experiment's results from its cells' run summaries: per-arm curves and
 * totals, the per-task grid, progress and an ETA from the pace so far (ms).
 * `family` is the experiment's family descriptor (or its {@link SummaryFamilyTraits}).
 * Pure: the same inputs and `now` (epoch ms) give the same summary.
 */
export function summarizeExperiment(record: ExperimentRecord, cells: readonly CellInput[], now: number, family: SummaryFamilyTraits): ExperimentSummary {
  const definition = record.definition;
  const total = definition.taskIds.length * definition.arms.length * repeatsOf(definition);
  const done = cells.filter((cell) => cell.summary.status === "ended").length;
  const elapsed = Math.max(0, now - Date.parse(record.createdAt));
  const allEnded = cells.length === total && done === total;
  const cancelled = cells.some((cell) => cell.summary.outcome === "cancelled");
  // Budget-exhausted runs are stopped, not running: with every other run ended, the experiment is stopped (no ETA).
  const outOfBudget = cells.filter((cell) => cell.status === "budget-exhausted").length;
  const stopped = !cancelled && cells.length === total && outOfBudget > 0 && cells.every((cell) => cell.summary.status === "ended" || cell.status === "budget-exhausted");
  const etaMs = !stopped && done > 0 && done < total ? (elapsed / done) * (total - done) : null;
  const gridCells: ExperimentCell[] = cells.map((cell) => ({
    taskId: cell.taskId,
    arm: cell.arm,
    repetition: cell.repetition ?? 1,
    runId: cell.runId,
    status: cell.status,
    solvedAtTrial: solvedAtTrial(cell.summary),
    outcome: cell.summary.outcome,
    trials: cell.summary.trialsEnded,
    falsePositive: cell.summary.status === "ended" && cell.summary.lastFalsePositive,
    halts: cell.summary.halts,
  }));
  const status = allEnded ? (cancelled ? "cancelled" : "ended") : cancelled && cells.every((cell) => cell.summary.status !== "running") ? "cancelled" : stopped ? "stopped" : "running";
  // A running experiment's summary is read every second: its bootstrap figures are a lighter preview until the runs stop.
  const resamples = status === "running" ? PREVIEW_RESAMPLES : DEFAULT_RESAMPLES;
  const arms = definition.arms.map((arm) => armResult(record, family, arm.label, cells.filter((cell) => cell.arm === arm.label), resamples));
  const tests = allPairedComparisons(
    arms.map((arm) => ({ label: arm.label, trials: arm.trials, units: cells.filter((cell) => cell.arm === arm.label).map(armUnitOf) })),
    resamples,
  );
  return {
    experiment: record,
    status,
    progress: { total, done, etaMs, outOfBudget },
    arms,
    cells: gridCells,
    tests,
  };
}
