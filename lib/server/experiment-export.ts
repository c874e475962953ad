import { experimentSummaryLine, type ExperimentSummary } from "@/lib/domain/experiment";
import { meanF1ByTrial } from "@/lib/domain/experiment-summary";
import { EXPERIMENT_TRIAL_COLUMNS, experimentTrialRows, type ExperimentTrialRow } from "@/lib/domain/experiment-trial-rows";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun, type RunState } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import type { RunStore } from "@/lib/db/store";
import type { ExperimentService } from "./experiment-service";
import { latexTables, markdownTables } from "@/lib/domain/experiment-tables";
import { costEffectivenessSvg, successCurveSvg } from "@/lib/graph/experiment-figures";
import { paperCurveNotes } from "@/lib/domain/paper-curves";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { experimentCsvStream, trialRowsCsv } from "./experiment-csv-stream";
import { trialStatsOfRuns } from "./run-trial-stats";

/** Export formats: trial rows (csv), summary and rows (json), every event (events), tables (md, latex), figures (svg). */
export const EXPERIMENT_EXPORT_FORMATS = ["csv", "json", "events", "md", "latex", "svg"] as const;
export type ExperimentExportFormat = (typeof EXPERIMENT_EXPORT_FORMATS)[number];

/** The figure an `svg` export draws: the success curves with bands, or the cost-effectiveness plot. */
export const EXPERIMENT_FIGURES = ["curve", "cost"] as const;
export type ExperimentFigure = (typeof EXPERIMENT_FIGURES)[number];

/** CSV columns, one row per task × arm × repetition × trial, carried forward to the trial budget (lib/domain/experiment-trial-rows.ts says what each holds). */
export const EXPERIMENT_CSV_COLUMNS = EXPERIMENT_TRIAL_COLUMNS;

/**
 * Exports of an experiment: a CSV of its trials (papaparse), a JSON summary
 * with per-run outcomes and the same trial rows, and its runs' stored events as
 * NDJSON. The CSV rows and the JSON's `trials` are one list, built by
 * `experimentTrialRows` from the experiment's summary, so neither can count a
 * trial differently from the summary (e.g. a code false positive as a success).
 * Each run's log is folded here (an export is a person's request, not a poll).
 */
export class ExperimentExport {
  constructor(
    private readonly store: RunStore,
    private readonly experiments: ExperimentService,
  ) {}

  /** One row per task × arm × repetition × trial (RFC 4180, header first; booleans `true`/`false`, null empty). */
  async csv(id: string): Promise<string> {
    const { rows } = await this.rows(id);
    return trialRowsCsv(rows, true);
  }

  /**
   * The same CSV as {@link csv}, streamed a page of cells at a time (lib/server/experiment-csv-stream.ts),
   * so an experiment of any size exports in bounded memory. The summary is read first; each page's
   * runs' trial stats come from the stored read model where it is valid (lib/server/run-trial-stats.ts),
   * else from their logs (and are stored then for ended runs).
   * @param options.cellsPerPage cells per streamed page; default `CSV_CELLS_PER_CHUNK`.
   * @throws AppError("not-found") for an unknown experiment (before any byte is streamed).
   */
  async csvStream(id: string, options: { cellsPerPage?: number } = {}): Promise<ReadableStream<Uint8Array>> {
    const summary = await this.experiments.summary(id);
    return experimentCsvStream(summary, (runIds) => trialStatsOfRuns(this.store, runIds, (runId) => this.events(runId)), options.cellsPerPage);
  }

  /** The CSV's download name, `experiment-<first 8 characters of the id>.csv` (as {@link render} names it). */
  csvFileName(id: string): string {
    return `experiment-${id.slice(0, 8)}.csv`;
  }

  /** The summary and its trial rows, from one read of the summary. */
  private async rows(id: string): Promise<{ summary: ExperimentSummary; rows: ExperimentTrialRow[] }> {
    const summary = await this.experiments.summary(id);
    const logs = new Map<string, RunEvent[]>();
    for (const cell of summary.cells) logs.set(cell.runId, await this.events(cell.runId));
    return { summary, rows: experimentTrialRows(summary, logs) };
  }

  /**
   * The `--json` summary object plus the experiment's definition, progress, each arm's totals
   * (false positives and halts included), every cell's outcome and the CSV's trial rows (`trials`).
   * QA arms get `meanF1ByTrial` from the runs' recorded evaluations (folded here) when the summary lacks it.
   */
  async json(id: string): Promise<{
    summary: unknown;
    experiment: ExperimentSummary["experiment"];
    status: ExperimentSummary["status"];
    progress: ExperimentSummary["progress"];
    arms: ExperimentSummary["arms"];
    cells: ExperimentSummary["cells"];
    tests: NonNullable<ExperimentSummary["tests"]>;
    trials: ExperimentTrialRow[];
  }> {
    const { summary: read, rows } = await this.rows(id);
    const summary = await this.withF1(read);
    return {
      summary: JSON.parse(experimentSummaryLine(summary)) as unknown,
      experiment: summary.experiment,
      status: summary.status,
      progress: summary.progress,
      arms: summary.arms,
      cells: summary.cells,
      tests: summary.tests ?? [],
      trials: rows,
    };
  }

  /** The arm table and the paired tests as Markdown (lib/domain/experiment-tables.ts). */
  async markdown(id: string): Promise<string> {
    const summary = await this.experiments.summary(id);
    return markdownTables(summary, familyDescriptor(summary.experiment.definition.environment).metric);
  }

  /** The same tables as a LaTeX document (article + booktabs). */
  async latex(id: string): Promise<string> {
    const summary = await this.experiments.summary(id);
    return latexTables(summary, familyDescriptor(summary.experiment.definition.environment).metric);
  }

  /** A figure as SVG: the curves with 95 % bands (default) or the cost-effectiveness plot (lib/graph/experiment-figures.ts). */
  async svg(id: string, figure: ExperimentFigure = "curve"): Promise<string> {
    const summary = await this.experiments.summary(id);
    if (figure === "cost") return costEffectivenessSvg(summary);
    // Imported paper runs: points their logs do not record are drawn dashed, the paper's reported point marked.
    const notes = summary.arms.map((arm) => ({ arm, notes: paperCurveNotes(summary.experiment.provenance, familyDescriptor(summary.experiment.definition.environment).paperLogCurves, arm) }));
    return successCurveSvg(summary, {
      unrecorded: notes.flatMap(({ arm, notes: n }) => (n.unrecorded ? [{ arm: arm.label, ...n.unrecorded }] : [])),
      marks: notes.flatMap(({ notes: n }) => (n.reported ? [{ trial: n.reported.trial, percent: (100 * n.reported.solved) / n.reported.tasks, label: n.reported.label }] : [])),
    });
  }

  /**
   * Any export as text with its media type and file name (the HTTP route and the CLI share it).
   * @throws AppError("not-found") for an unknown experiment.
   */
  async render(id: string, format: ExperimentExportFormat, figure: ExperimentFigure = "curve"): Promise<{ text: string; contentType: string; fileName: string }> {
    const base = `experiment-${id.slice(0, 8)}`;
    switch (format) {
      case "csv":
        return { text: await this.csv(id), contentType: "text/csv; charset=utf-8", fileName: this.csvFileName(id) };
      case "json":
        return { text: `${JSON.stringify(await this.json(id), null, 2)}\n`, contentType: "application/json; charset=utf-8", fileName: `${base}.json` };
      case "events":
        return { text: await this.eventsNdjson(id), contentType: "application/x-ndjson; charset=utf-8", fileName: `${base}-events.jsonl` };
      case "md":
        return { text: await this.markdown(id), contentType: "text/markdown; charset=utf-8", fileName: `${base}.md` };
      case "latex":
        return { text: await this.latex(id), contentType: "application/x-tex; charset=utf-8", fileName: `${base}.tex` };
      case "svg":
        return { text: await this.svg(id, figure), contentType: "image/svg+xml; charset=utf-8", fileName: `${base}-${figure}.svg` };
    }
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
