import { strategyBehaviour } from "@/lib/domain/strategies";
import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { Provenance } from "@/lib/domain/provenance";
import { environmentEntry } from "@/lib/environments/registry";
import type { ImportedRunInput } from "@/lib/db/store";
import type { AlfworldRecord, ParsedAlfworldRun } from "./alfworld-results-parser";
import type { LogDescriptor } from "./log-catalog";
import { provenanceOf } from "./provenance-of";
import { RunLogBuilder } from "./run-log-builder";
import type { MappedLog, TaskSetRef } from "./types";

/**
 * Maps a parsed ALFWorld run (alfworld-results-parser.ts) to one run per
 * environment (docs/decisions/0015): each trial has no steps (the trajectories
 * were not published), the environment's verdict (`environment-success`, an
 * oracle signal) and, after a failure, the reflections it added to the memory.
 * The run stops at its first success, as the authors' loop did (solved
 * environments were not run again). For the ReAct-only run (strategy `none`)
 * the reflections the script still wrote are recorded, but every trial starts
 * with nothing in the Actor's context, which is what the Actor saw.
 *
 * The task is a recorded-only stand-in `{ id, recordedOnly: true, … }`: the
 * household family needs a scene the logs do not have, so these runs cannot be
 * forked (RunService refuses, naming why).
 */

/** The task of an imported ALFWorld environment: what the log says about it and nothing more. */
export function recordedHouseholdTask(name: string): Record<string, unknown> {
  return {
    id: name,
    recordedOnly: true,
    description: `ALFWorld environment ${name} of the authors' 134 (the logs name environments by index only)`,
    source: "paper-log",
  };
}

/** Options of {@link mapAlfworldRun}. */
export interface MapAlfworldOptions {
  descriptor: LogDescriptor;
  source: string;
  taskSet: TaskSetRef;
}

/** Maps the run's trial files to runs, warnings and notes. */
export function mapAlfworldRun(parsed: ParsedAlfworldRun, options: MapAlfworldOptions): MappedLog {
  const { descriptor } = options;
  const trials = parsed.trials.length;
  const warnings: string[] = [];
  const names: string[] = [];
  const byName = new Map<string, Array<(AlfworldRecord & { line: number }) | null>>();
  parsed.trials.forEach((trial, k) => {
    for (const record of trial.records) {
      if (!byName.has(record.name)) {
        names.push(record.name);
        byName.set(record.name, Array.from({ length: trials }, () => null));
      }
      const row = byName.get(record.name);
      if (row) row[k] = record;
    }
  });
  const provenance = provenanceOf(descriptor, options.source, [], null);
  const runs: ImportedRunInput[] = [];
  for (const name of names) {
    const row = byName.get(name) ?? [];
    const missing = row.map((record, k) => (record === null ? k : null)).filter((k): k is number => k !== null);
    if (missing.length > 0) warnings.push(`${name} is missing from trial file(s) ${missing.map((k) => `env_results_trial_${k}.json`).join(", ")}: recorded as failed trials.`);
    const solvedAt = row.findIndex((record) => record?.is_success === true);
    const regress = solvedAt >= 0 && row.slice(solvedAt).some((record) => record !== null && !record.is_success);
    if (regress) warnings.push(`${name} succeeds in trial ${solvedAt + 1} and fails later; the run stops at its first success, as the authors' loop did.`);
    runs.push(buildRun(name, row, { descriptor, provenance, trials, taskSet: options.taskSet }));
  }
  return { descriptor, trials, runs, warnings, logSummary: null, notes: [] };
}

function configFor(name: string, options: { descriptor: LogDescriptor; provenance: Provenance; trials: number; taskSet: TaskSetRef }): RunConfig {
  const { family } = environmentEntry("household");
  const model = { modelId: options.descriptor.modelId, temperature: 0, maxOutputTokens: 256 };
  return runConfigSchema.parse({
    environment: "household",
    taskSetName: options.taskSet.name,
    taskId: name,
    task: recordedHouseholdTask(name),
    strategy: options.descriptor.strategy,
    memoryWindow: options.descriptor.memoryWindow,
    maxTrials: options.trials,
    maxStepsPerTrial: family.defaultMaxStepsPerTrial ?? 50,
    models: { actor: model, reflector: model },
    templates: family.templatesFor?.(options.descriptor.strategy) ?? family.defaultTemplates,
    replayMode: "live",
    provenance: options.provenance,
  });
}

function buildRun(
  name: string,
  row: ReadonlyArray<(AlfworldRecord & { line: number }) | null>,
  options: { descriptor: LogDescriptor; provenance: Provenance; trials: number; taskSet: TaskSetRef },
): ImportedRunInput {
  const builder = new RunLogBuilder(configFor(name, options));
  // The ALFWorld logs hold ReAct-only and Reflexion runs; only Reflexion feeds its memory to the Actor.
  const fedToActor = strategyBehaviour(options.descriptor.strategy).reflectionsInPrompt;
  let solved = false;
  let memoryLength = 0;
  for (let k = 0; k < row.length && !solved; k += 1) {
    const record = row[k] ?? null;
    builder.startTrial(fedToActor ? undefined : []);
    solved = record?.is_success === true;
    const file = `env_results_trial_${k}.json`;
    const feedback = record === null ? `Not listed in ${file}.` : solved ? `The environment reported success (${file}: is_success true).` : `The environment did not report success (${file}: is_success false).`;
    builder.endTrial({
      outcome: solved ? "success" : "failure",
      reason: `${feedback} The trajectory was not published.`,
      evaluation: {
        verdict: solved ? "pass" : "fail",
        score: solved ? 1 : 0,
        feedback,
        evaluatorKind: "environment-success",
        oracle: true,
        details: { recorded: true, file, line: record?.line ?? null, trajectoryPublished: false },
      },
    });
    if (!solved && record !== null) {
      // After the last trial too: the authors' script wrote it, though no later trial read it.
      const added = record.memory.slice(memoryLength).map((text) => text.trim()).filter((text) => text !== "");
      builder.reflect(added, fedToActor ? null : "Written by the authors' script but not shown to the Actor (ReAct-only run).");
    }
    if (record !== null) memoryLength = record.memory.length;
  }
  builder.end(solved ? "success" : "failure");
  return { config: builder.config, title: `ALFWorld ${name}`, cell: { taskId: name, arm: options.descriptor.label }, drafts: builder.drafts };
}
