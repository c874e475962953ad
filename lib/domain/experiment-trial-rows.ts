import type { RunEvent } from "./events";
import type { ExperimentCell, ExperimentSummary } from "./experiment";
import type { TrialView } from "./fold-run";
import { runTrialStats, type RunTrialStats } from "./run-trial-stats";

/**
 * One row per task × arm × repetition × trial of an experiment, in long format up to the arm's trial
 * budget: what the CSV export writes and the JSON export carries as `trials`, built by
 * {@link experimentTrialRows} from the experiment's summary (lib/domain/experiment-summary.ts) and its
 * runs' logs, so the three cannot disagree: a row's `outcome` is success exactly at the trial where
 * the summary counts the cell as solved, and `solved_so_far` summed over an arm's rows of trial k and
 * divided by the repetitions is the summary's `successByTrial[k - 1]`. A run that ended before its
 * budget (at its first success) is carried forward: rows `carried_forward` = true for the trials it
 * did not need, with its solved flag, zero calls and the settings of its last trial.
 *
 * Units: tokens are counts, `cost_usd` USD (null when a call has no known price), `latency_ms`
 * milliseconds (the trial's model calls). Null is an empty CSV cell.
 */
export interface ExperimentTrialRow {
  task_id: string;
  arm: string;
  /** 1-based repetition of the (task, arm). */
  repetition: number;
  strategy: string;
  model: string;
  /** 1-based. */
  trial: number;
  /** The cell was solved at or before this trial (cumulative, the paper's curves). */
  solved_so_far: boolean;
  /** A trial the run did not play because it had ended (solved, or cancelled); its solved flag carried forward. */
  carried_forward: boolean;
  /**
   * The trial as the summary counts it: `success` at the trial where the cell is solved (for code,
   * pass@1 on the hidden tests — an internal pass with a hidden fail is a `failure`), `failure` for
   * any other ended trial, `cancelled` for the trial a cancel cut short, null while the trial (or the
   * run's verdict on it) is still open.
   */
  outcome: "success" | "failure" | "cancelled" | null;
  /** The trial's own end (`trial-end`): `success` when its Evaluator passed (code: the internal tests), `failure`, or `halted`. */
  trial_outcome: "success" | "failure" | "halted" | null;
  /** Why the trial was halted (e.g. the step limit), null when it was not. */
  halt_reason: string | null;
  /** The Evaluator's verdict that drives the loop: code's internal tests, QA's exact match, a household's success, the judge's. */
  internal_verdict: "pass" | "fail" | null;
  /** Code: the dataset's hidden tests (reported only, never shown to the agent); null for other families. */
  hidden_verdict: "pass" | "fail" | null;
  /** Code: the internal tests passed and the hidden tests did not (paper §4, Table 2). */
  false_positive: boolean;
  /** The Evaluator's score in [0, 1]. */
  score: number | null;
  /** QA: F1 of the answer (hotpot_evaluate_v1); null for other families and evaluations recorded without it. */
  f1: number | null;
  /** Actor steps of the trial. */
  steps: number;
  /** Every model call of the trial was served from the response cache (a recorded replay or an arm sharing the call). */
  cached: boolean;
  model_calls: number;
  cached_calls: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number | null;
  latency_ms: number;
  /** The templates in force when the trial started: `id@version`, and the library version id (`tv-…`) when the text is a saved version. */
  actor_template: string | null;
  actor_template_version_id: string | null;
  reflector_template: string | null;
  reflector_template_version_id: string | null;
  /** Sampling temperatures in force when the trial started. */
  actor_temperature: number | null;
  reflector_temperature: number | null;
  /** The sampling seed the Actor was sent; null when none. */
  seed: number | null;
  /** The memory window Ω (reflections the Actor sees); null = unbounded. */
  memory_window: number | null;
  /** The experiment's pinned task set (SHA-256 of its tasks, lib/domain/experiment.ts `datasetPinSchema`); null for experiments recorded before pinning. */
  dataset_hash: string | null;
  run_id: string;
}

/** The columns, in order (the CSV header). */
export const EXPERIMENT_TRIAL_COLUMNS = [
  "task_id",
  "arm",
  "repetition",
  "strategy",
  "model",
  "trial",
  "solved_so_far",
  "carried_forward",
  "outcome",
  "trial_outcome",
  "halt_reason",
  "internal_verdict",
  "hidden_verdict",
  "false_positive",
  "score",
  "f1",
  "steps",
  "cached",
  "model_calls",
  "cached_calls",
  "tokens_in",
  "tokens_out",
  "cost_usd",
  "latency_ms",
  "actor_template",
  "actor_template_version_id",
  "reflector_template",
  "reflector_template_version_id",
  "actor_temperature",
  "reflector_temperature",
  "seed",
  "memory_window",
  "dataset_hash",
  "run_id",
] as const satisfies ReadonlyArray<keyof ExperimentTrialRow>;

/**
 * How the summary counts one trial of a cell: success at its `solvedAtTrial`; null for a trial not
 * ended, or an ended trial that passed its Evaluator while the run has no verdict yet (code: the
 * hidden tests decide at run end); `cancelled` for the trial a cancel cut short; failure otherwise.
 */
export function countedTrialOutcome(cell: Pick<ExperimentCell, "solvedAtTrial" | "outcome">, trial: Pick<TrialView, "trial" | "outcome">): "success" | "failure" | "cancelled" | null {
  // A trial with no end in a run that has ended was cut short by a cancel.
  if (trial.outcome === null) return cell.outcome === null ? null : cell.outcome === "cancelled" ? "cancelled" : "failure";
  if (cell.solvedAtTrial === trial.trial) return "success";
  if (trial.outcome === "success" && cell.outcome === null) return null;
  return "failure";
}

/** A cell's rows from its run's root-branch log: {@link trialRowsFromStats} of the log's {@link runTrialStats}. */
export function trialRowsOfCell(summary: Pick<ExperimentSummary, "experiment">, cell: ExperimentCell, events: readonly RunEvent[]): ExperimentTrialRow[] {
  return trialRowsFromStats(summary, cell, runTrialStats(events));
}

/**
 * A cell's rows from its run's trial statistics (computed from the log, or stored once the run
 * ended): the stats joined with the cell — task, arm, repetition, solved flags, the counted outcome,
 * the carried-forward rows and the dataset hash. No log is read here.
 */
export function trialRowsFromStats(summary: Pick<ExperimentSummary, "experiment">, cell: ExperimentCell, stats: RunTrialStats): ExperimentTrialRow[] {
  const arm = summary.experiment.definition.arms.find((candidate) => candidate.label === cell.arm);
  const datasetHash = summary.experiment.definition.dataset?.hash ?? null;
  const played = stats.map(
    (trial): ExperimentTrialRow => ({
      task_id: cell.taskId,
      arm: cell.arm,
      repetition: cell.repetition ?? 1,
      strategy: arm?.strategy ?? trial.config_strategy ?? "",
      model: arm?.modelId ?? trial.config_model ?? "",
      trial: trial.trial,
      solved_so_far: cell.solvedAtTrial !== null && cell.solvedAtTrial <= trial.trial,
      carried_forward: false,
      outcome: countedTrialOutcome(cell, { trial: trial.trial, outcome: trial.trial_outcome }),
      trial_outcome: trial.trial_outcome,
      halt_reason: trial.halt_reason,
      internal_verdict: trial.internal_verdict,
      hidden_verdict: trial.hidden_verdict,
      false_positive: trial.false_positive,
      score: trial.score,
      f1: trial.f1,
      steps: trial.steps,
      cached: trial.cached,
      model_calls: trial.model_calls,
      cached_calls: trial.cached_calls,
      tokens_in: trial.tokens_in,
      tokens_out: trial.tokens_out,
      cost_usd: trial.cost_usd,
      latency_ms: trial.latency_ms,
      actor_template: trial.actor_template,
      actor_template_version_id: trial.actor_template_version_id,
      reflector_template: trial.reflector_template,
      reflector_template_version_id: trial.reflector_template_version_id,
      actor_temperature: trial.actor_temperature,
      reflector_temperature: trial.reflector_temperature,
      seed: trial.seed,
      memory_window: trial.memory_window,
      dataset_hash: datasetHash,
      run_id: cell.runId,
    }),
  );
  return [...played, ...carriedForward(summary, cell, played)];
}

/**
 * The rows a run that ended early did not play, up to its arm's trial budget: its last row's settings,
 * no calls, the solved flag carried. None while the run has not ended (it may still play them), nor
 * for a run stopped by its budget.
 */
function carriedForward(summary: Pick<ExperimentSummary, "experiment">, cell: ExperimentCell, played: readonly ExperimentTrialRow[]): ExperimentTrialRow[] {
  const last = played.at(-1);
  if (!last || cell.outcome === null || cell.status === "budget-exhausted") return [];
  const definition = summary.experiment.definition;
  const budget = definition.arms.find((candidate) => candidate.label === cell.arm)?.maxTrials ?? definition.maxTrials;
  const rows: ExperimentTrialRow[] = [];
  for (let trial = last.trial + 1; trial <= budget; trial += 1) {
    rows.push({
      ...last,
      trial,
      solved_so_far: cell.solvedAtTrial !== null && cell.solvedAtTrial <= trial,
      carried_forward: true,
      outcome: null,
      trial_outcome: null,
      halt_reason: null,
      internal_verdict: null,
      hidden_verdict: null,
      false_positive: false,
      score: null,
      f1: null,
      steps: 0,
      cached: false,
      model_calls: 0,
      cached_calls: 0,
      tokens_in: 0,
      tokens_out: 0,
      cost_usd: 0,
      latency_ms: 0,
    });
  }
  return rows;
}

/**
 * Every trial row of an experiment, cell by cell in the summary's order.
 * @param logs each cell's run's root-branch events, by run id (a run with no log gives no rows).
 */
export function experimentTrialRows(summary: Pick<ExperimentSummary, "experiment" | "cells">, logs: ReadonlyMap<string, readonly RunEvent[]>): ExperimentTrialRow[] {
  return summary.cells.flatMap((cell) => trialRowsOfCell(summary, cell, logs.get(cell.runId) ?? []));
}
