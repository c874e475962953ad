import { runAs } from "@/lib/actors/actor-context";
import { importActor } from "@/lib/auth/system-actors";
import { createHash } from "node:crypto";
import type { ImportedRunInput, RunStore } from "@/lib/db/store";
import { AppError } from "@/lib/domain/errors";
import { experimentDefinitionSchema } from "@/lib/domain/experiment";
import type { Provenance } from "@/lib/domain/provenance";
import { traceFormatSchema, type TraceImportResult } from "@/lib/domain/trace-import";
import type { TraceFormat, TraceProblem } from "@/lib/importers/external/external-trace";
import { resolveTraceFormat, TRACE_FORMAT_DESCRIPTIONS, TRACE_PARSERS, TraceFormatError, type ParsedTraceFile, type TraceFormatChoice } from "@/lib/importers/external/formats";
import { mapTrace } from "@/lib/importers/external/map-trace";
import { mapOwnExport } from "@/lib/importers/external/own-export";

/**
 * Imports outside agents' trace files (decision 0039): one file → one experiment with one arm
 * ("Imported traces: <file name>") and one read-only run per trace, stored in one transaction
 * (`RunStore.importExperiment`: all the file's readable traces or nothing). Records that cannot be
 * read come back as problems, not errors; only a file in which nothing at all could be read is an
 * error. Importing the same content again (SHA-256 of the bytes) returns the existing experiment, in
 * the format it was imported in (its provenance's), whatever format is asked for this time, with
 * the problems that import had. Used by `POST /api/imports/traces` and `cli import-traces`.
 */

/** One file to import: its name and bytes (already gunzipped), and the format asked for. */
export interface TraceFileInput {
  name: string;
  bytes: Uint8Array;
  format?: TraceFormatChoice;
}

/** The most traces one file may hold: an experiment has at most 2,000 tasks (experimentDefinitionSchema). */
export const MAX_TRACES_PER_FILE = 2_000;

export class TraceImportService {
  private readonly inFlight = new Map<string, Promise<TraceImportResult>>();

  constructor(private readonly store: RunStore) {}

  /**
   * Imports one file, or returns the experiment an earlier import of the same bytes made (`reused`:
   * its stored format, the problems of reading the content in that format).
   * @throws AppError("invalid-input") when the file is empty or holds more than
   *   {@link MAX_TRACES_PER_FILE} traces; TraceFormatError("invalid-input") when `auto` recognises
   *   no format; TraceFormatError("invalid-dataset") naming the file, the first problem's line and
   *   what the format looks like when nothing in it could be read (nothing is stored). Messages say
   *   "name the format", never how: the CLI and the UI each add their own way.
   */
  async importFile(input: TraceFileInput): Promise<TraceImportResult> {
    const sha256 = createHash("sha256").update(input.bytes).digest("hex");
    // The same content twice at once (a double drop) waits for one import.
    const pending = this.inFlight.get(sha256);
    if (pending) return { ...(await pending), file: input.name, reused: true };
    const work = this.importOnce(input, sha256);
    this.inFlight.set(sha256, work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(sha256);
    }
  }

  private async importOnce(input: TraceFileInput, sha256: string): Promise<TraceImportResult> {
    const existing = await this.existing(sha256);
    if (existing) {
      // The stored import's format, not the one asked for now: the content was read in it, and a wrong format asked for would only add problems of a reading that is not used.
      const format = existing.format ?? resolveTraceFormat(input.bytes, input.name, input.format ?? "auto");
      const problems = await this.read(input, format, sha256).then(
        (read) => read.problems,
        () => [],
      );
      return { file: input.name, experimentId: existing.experimentId, runIds: existing.runIds, format, traces: existing.runIds.length, problems, reused: true };
    }
    const format = resolveTraceFormat(input.bytes, input.name, input.format ?? "auto");
    const { runs, problems } = await this.read(input, format, sha256);
    if (runs.length === 0) {
      const first = problems[0];
      // A parser's file-level problem is "where" the file itself: the message names the file once.
      const cause = first ? ` (${first.where === input.name ? "" : `${first.where}: `}${first.message.replace(/\.$/, "")})` : " (the file holds no spans)";
      throw new TraceFormatError("invalid-dataset", `${input.name}: no trace could be read${cause}. Expected ${TRACE_FORMAT_DESCRIPTIONS[format]}; if the file is in another format, name it.`);
    }
    if (runs.length > MAX_TRACES_PER_FILE) throw new AppError("invalid-input", `${input.name} holds ${runs.length} traces; one import takes at most ${MAX_TRACES_PER_FILE}. Split the file.`);
    const environment = runs[0]!.config.environment;
    const sameFamily = runs.filter((run) => run.config.environment === environment);
    uniqueCells(sameFamily);
    const arm = sameFamily[0]!.cell.arm;
    const first = sameFamily[0]!.config;
    const definition = experimentDefinitionSchema.parse({
      name: `Imported traces: ${input.name}`.slice(0, 120),
      environment,
      taskSet: "imported-traces",
      taskIds: sameFamily.map((run) => run.cell.taskId),
      arms: [{ label: arm, strategy: first.strategy, modelId: first.models.actor.modelId, memoryWindow: first.memoryWindow, maxTrials: Math.max(...sameFamily.map((run) => run.config.maxTrials)) }],
      maxTrials: Math.max(...sameFamily.map((run) => run.config.maxTrials)),
      concurrency: 1,
    });
    const { experiment, runs: stored } = await runAs(importActor("traces"), () => this.store.importExperiment({ definition, taskSetName: input.name, provenance: provenanceOf(input.name, format, sha256, first.provenance?.model ?? "unknown", []), runs: sameFamily }));
    return { file: input.name, experimentId: experiment.id, runIds: stored.map((run) => run.id), format, traces: stored.length, problems, reused: false };
  }

  /** The file read in `format`: its runs (of every family) and every problem of reading and mapping it, runs of a family other than the first trace's included (they are not imported). */
  private async read(input: TraceFileInput, format: TraceFormat, sha256: string): Promise<{ runs: ImportedRunInput[]; problems: TraceProblem[] }> {
    const parsed = await TRACE_PARSERS[format](input.bytes, input.name);
    const { runs, problems } = this.mapAll(parsed, input.name, format, sha256);
    const environment = runs[0]?.config.environment;
    for (const run of runs) {
      if (run.config.environment !== environment) problems.push({ where: `trace ${run.config.provenance?.traceId ?? run.title}`, message: `a run of task family "${run.config.environment}" in a file whose first trace is "${environment}": one file becomes one experiment of one family; import it from a file of its own.` });
    }
    return { runs, problems };
  }

  /** Every trace of the parse as a run (own-export traces rebuilt as their own family's runs); problems of traces that could not be mapped are added. */
  private mapAll(parsed: ParsedTraceFile, name: string, format: TraceFormat, sha256: string): { runs: ImportedRunInput[]; problems: TraceProblem[] } {
    const problems: TraceProblem[] = [...parsed.problems];
    const arm = armLabel(name);
    const runs: ImportedRunInput[] = [];
    const own = parsed.ownExports ?? [];
    const external = provenanceOf(name, format, sha256, "unknown", []);
    for (const trace of parsed.traces) {
      try {
        runs.push(mapTrace(trace, { arm, taskSetName: name, provenance: external }));
      } catch (error) {
        problems.push({ where: `trace ${trace.traceId}`, message: `could not be recorded: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
    const ownProvenance = provenanceOf(name, format, sha256, "unknown", ["Re-imported from this app's own OTLP export (scope reflexion-playground.event-log): the run's events are rebuilt from its spans; its task content, templates and costs are not in the export."]);
    for (const trace of own) {
      try {
        const result = mapOwnExport(trace.traceId, trace.spans, { arm, provenance: ownProvenance });
        problems.push(...result.problems);
        if (result.run) runs.push(result.run);
      } catch (error) {
        problems.push({ where: `trace ${trace.traceId}`, message: `could not be rebuilt: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
    return { runs, problems };
  }

  /** The experiment an earlier import of these bytes made, with its runs and the format it was read in (null for an import recorded without one). */
  private async existing(sha256: string): Promise<{ experimentId: string; runIds: string[]; format: TraceFormat | null } | null> {
    const experiments = await this.store.experiments.listExperiments(10_000);
    const found = experiments.find((experiment) => experiment.provenance?.kind === "external-trace" && experiment.provenance.contentSha256 === sha256);
    if (!found) return null;
    const links = await this.store.experiments.listExperimentRuns(found.id);
    const format = traceFormatSchema.safeParse(found.provenance?.traceFormat);
    return { experimentId: found.id, runIds: links.map((link) => link.runId), format: format.success ? format.data : null };
  }
}

/** "Imported traces: <file name>", within an arm label's 60 characters. */
export function armLabel(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const label = `Imported traces: ${base}`;
  return label.length <= 60 ? label : `${label.slice(0, 59)}…`;
}

function provenanceOf(name: string, format: TraceFormat, sha256: string, model: string, notes: string[]): Provenance {
  return {
    kind: "external-trace",
    label: armLabel(name),
    source: name.split(/[\\/]/).pop() ?? name,
    recordedBy: "agent",
    year: new Date().getUTCFullYear(),
    model,
    notes,
    logSummary: null,
    contentSha256: sha256,
    traceFormat: format,
  };
}

/** Two traces of one task are two cells: the second and later get `#2`, `#3` … on their cell's task id (the task's own id stays in the config's task). */
function uniqueCells(runs: ImportedRunInput[]): void {
  const seen = new Map<string, number>();
  for (const run of runs) {
    const count = (seen.get(run.cell.taskId) ?? 0) + 1;
    seen.set(run.cell.taskId, count);
    if (count > 1) {
      const taskId = `${run.cell.taskId}#${count}`;
      run.cell = { ...run.cell, taskId };
      run.config = { ...run.config, taskId };
    }
  }
}
