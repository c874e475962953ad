import { stringify } from "csv-stringify/sync";
import { experimentSummaryLine, type ExperimentSummary } from "@/lib/domain/experiment";
import { meanF1ByTrial } from "@/lib/domain/experiment-summary";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import type { RunStore } from "@/lib/db/store";
import type { ExperimentService } from "./experiment-service";

/**
 * CSV columns, one row per task × arm × trial. Tokens are counts, cost USD (empty when unpriced), latency ms (the trial's model calls);
 * `f1` the QA evaluation's F1 in [0, 1] (hotpot_evaluate_v1), empty for other families and evaluations recorded without it.
 */
export const EXPERIMENT_CSV_COLUMNS = [
  "task_id",
  "arm",
  "strategy",
  "model",
  "trial",
  "outcome",
  "verdict",
  "score",
  "f1",
  "tokens_in",
  "tokens_out",
  "cost_usd",
  "latency_ms",
  "run_id",
] as const;

/**
 * Exports of an experiment: a CSV of its trials (csv-stringify), a JSON summary
 * with per-run outcomes, and its runs' stored events as NDJSON. Each run's log
 * is folded here (an export is a person's request, not a poll).
 */
export class ExperimentExport {
  constructor(
    private readonly store: RunStore,
    private readonly experiments: ExperimentService,
  ) {}

  /** One row per task × arm × trial (RFC 4180, header first). */
  async csv(id: string): Promise<string> {
    const summary = await this.experiments.summary(id);
    const rows: Array<Record<(typeof EXPERIMENT_CSV_COLUMNS)[number], string | number>> = [];
    for (const cell of summary.cells) {
      const arm = summary.experiment.definition.arms.find((candidate) => candidate.label === cell.arm);
      const state = foldRun(await this.events(cell.runId));
      for (const trial of state.trials) {
        const calls = trial.callIds.map((callId) => state.calls[callId]).filter((call) => call !== undefined);
        const unpriced = calls.some((call) => call.costUsd === null);
        rows.push({
          task_id: cell.taskId,
          arm: cell.arm,
          strategy: arm?.strategy ?? "",
          model: arm?.modelId ?? "",
          trial: trial.trial,
          outcome: trial.outcome ?? "",
          verdict: trial.evaluation?.verdict ?? "",
          score: trial.evaluation?.score ?? "",
          f1: recordedF1(trial.evaluation?.details) ?? "",
          tokens_in: calls.reduce((n, call) => n + call.usage.inputTokens, 0),
          tokens_out: calls.reduce((n, call) => n + call.usage.outputTokens, 0),
          cost_usd: unpriced ? "" : calls.reduce((n, call) => n + (call.costUsd ?? 0), 0),
          latency_ms: calls.reduce((n, call) => n + call.latencyMs, 0),
          run_id: cell.runId,
        });
      }
    }
    return stringify(rows, { header: true, columns: [...EXPERIMENT_CSV_COLUMNS] });
  }

  /**
   * The `--json` summary object plus the experiment's definition, progress and every cell's outcome.
   * QA arms get `meanF1ByTrial` from the runs' recorded evaluations (folded here) when the summary lacks it.
   */
  async json(id: string): Promise<{ summary: unknown; experiment: ExperimentSummary["experiment"]; status: ExperimentSummary["status"]; progress: ExperimentSummary["progress"]; cells: ExperimentSummary["cells"] }> {
    const summary = await this.withF1(await this.experiments.summary(id));
    return {
      summary: JSON.parse(experimentSummaryLine(summary)) as unknown,
      experiment: summary.experiment,
      status: summary.status,
      progress: summary.progress,
      cells: summary.cells,
    };
  }

  /** Every run's stored events (root branch), one envelope per line. */
  async eventsNdjson(id: string): Promise<string> {
    const lines: string[] = [];
    for (const runId of await this.experiments.runIds(id)) {
      for (const event of await this.events(runId)) lines.push(JSON.stringify(event));
    }
    return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
  }

  /** The summary with each arm's `meanF1ByTrial` computed from its runs' logs, where it is missing. */
  private async withF1(summary: ExperimentSummary): Promise<ExperimentSummary> {
    if (summary.arms.every((arm) => arm.meanF1ByTrial !== undefined)) return summary;
    const arms = [];
    for (const arm of summary.arms) {
      if (arm.meanF1ByTrial !== undefined) {
        arms.push(arm);
        continue;
      }
      const cells = [];
      for (const cell of summary.cells.filter((candidate) => candidate.arm === arm.label)) {
        cells.push({ f1ByTrial: f1ByTrial(foldRun(await this.events(cell.runId))), ended: cell.status === "ended" });
      }
      const mean = meanF1ByTrial(cells, arm.trials);
      arms.push(mean === undefined ? arm : { ...arm, meanF1ByTrial: mean });
    }
    return { ...summary, arms };
  }

  private async events(runId: string) {
    const run = await this.store.getRun(asRunId(runId));
    if (!run) return [];
    return this.store.list(run.id, run.rootBranchId);
  }
}

/** `details.f1` of a QA evaluation (lib/environments/qa/f1.ts), or null. */
function recordedF1(details: Record<string, unknown> | undefined): number | null {
  return typeof details?.f1 === "number" ? details.f1 : null;
}

/** The recorded F1 of each evaluated trial, in order; undefined when some evaluation has none (not QA, or recorded before F1). */
export function f1ByTrial(state: RunState): number[] | undefined {
  const values = state.trials.filter((trial) => trial.evaluation !== null).map((trial) => recordedF1(trial.evaluation?.details));
  return values.length === 0 || values.some((value) => value === null) ? undefined : (values as number[]);
}
