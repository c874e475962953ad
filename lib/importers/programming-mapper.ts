import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import { CODE_ACTIONS } from "@/lib/domain/code-trial";
import type { Provenance } from "@/lib/domain/provenance";
import { environmentEntry } from "@/lib/environments/registry";
import type { ImportedRunInput } from "@/lib/db/store";
import type { LogDescriptor } from "./log-catalog";
import type { ParsedProgrammingLog, ProgrammingRecord } from "./programming-log-parser";
import { provenanceOf } from "./provenance-of";
import { RunLogBuilder } from "./run-log-builder";
import type { MappedLog, TaskSetRef } from "./types";

/**
 * Maps a parsed programming log (programming-log-parser.ts) to one run per
 * problem (docs/decisions/0015). The logs keep only the final program, the
 * reflections and the solved flag, so:
 *
 * - where the reflections count the failed iterations (Reflexion with internal
 *   tests; the blind "no test generation" ablation), a problem with r
 *   reflections has r + 1 trials: trials 1…r end failed (internal tests, not
 *   shown) each followed by its reflection, the last holds the final program;
 *   otherwise each problem has one trial;
 * - the last trial's step is the final program (`Implement`), and its verdict is
 *   the logged `is_solved` (the hidden tests, pass@1, paper Table 1); the run
 *   succeeds iff it is solved, so `successByTrial` ends at the paper's count;
 * - the arm's trial budget T is the longest run (HumanEval-Py: 10; MBPP and
 *   Rust: 5), 1 for one-shot logs.
 */

/** The recorded-only code task of a problem (prompt, entry point, hidden tests as logged). */
function recordedCodeTask(record: ProgrammingRecord, language: "python" | "rust"): Record<string, unknown> {
  return {
    id: record.id,
    language,
    prompt: record.prompt,
    entryPoint: record.entry_point,
    hiddenTests: record.test,
    referenceSolution: record.canonical_solution === undefined ? null : record.prompt + record.canonical_solution,
    setup: null,
    sourceFormat: record.task_id !== undefined ? "humaneval" : "multipl-e",
    recordedOnly: true,
  };
}

/** Options of {@link mapProgrammingLog}. */
export interface MapProgrammingOptions {
  descriptor: LogDescriptor;
  source: string;
  taskSet: TaskSetRef;
}

/** Maps a programming log to its runs. */
export function mapProgrammingLog(log: ParsedProgrammingLog, options: MapProgrammingOptions): MappedLog {
  const { descriptor } = options;
  const iterations = (record: ProgrammingRecord) => (descriptor.iterationsFromReflections ? record.reflections.length + 1 : 1);
  const trials = Math.min(50, Math.max(...log.records.map(iterations)));
  const warnings: string[] = [];
  const ignored = descriptor.iterationsFromReflections ? 0 : log.records.filter((record) => record.reflections.length > 0).length;
  if (ignored > 0) warnings.push(`${ignored} record(s) carry reflections although this log is not a Reflexion run; they are not recorded (the log has one trial per problem).`);
  const provenance = provenanceOf(descriptor, options.source, [], null);
  const runs = log.records.map((record) => buildRun(record, Math.min(trials, iterations(record)), { descriptor, provenance, trials, taskSet: options.taskSet }));
  return { descriptor, trials, runs, warnings, logSummary: null, notes: [] };
}

function configFor(record: ProgrammingRecord, options: { descriptor: LogDescriptor; provenance: Provenance; trials: number; taskSet: TaskSetRef }): RunConfig {
  const { family } = environmentEntry("code");
  const model = { modelId: options.descriptor.modelId, temperature: 0, maxOutputTokens: 1024 };
  return runConfigSchema.parse({
    environment: "code",
    taskSetName: options.taskSet.name,
    taskId: record.id,
    task: recordedCodeTask(record, options.descriptor.language ?? "python"),
    strategy: options.descriptor.strategy,
    memoryWindow: options.descriptor.memoryWindow,
    maxTrials: options.trials,
    maxStepsPerTrial: family.defaultMaxStepsPerTrial ?? 2,
    models: { actor: model, reflector: model },
    templates: family.templatesFor?.(options.descriptor.strategy) ?? family.defaultTemplates,
    replayMode: "live",
    provenance: options.provenance,
  });
}

function buildRun(record: ProgrammingRecord, iterations: number, options: { descriptor: LogDescriptor; provenance: Provenance; trials: number; taskSet: TaskSetRef }): ImportedRunInput {
  const builder = new RunLogBuilder(configFor(record, options));
  for (let k = 1; k < iterations; k += 1) {
    builder.startTrial();
    const feedback = "The internal tests failed (as the reflection that followed shows); this iteration's program and test output were not published.";
    builder.endTrial({
      outcome: "failure",
      reason: feedback,
      evaluation: { verdict: "fail", score: 0, feedback, evaluatorKind: "unit-tests", oracle: false, details: { recorded: true, line: record.line, iteration: k } },
    });
    builder.reflect([record.reflections[k - 1] ?? ""].filter((text) => text.trim() !== ""));
  }
  builder.startTrial();
  const solved = record.is_solved;
  builder.step({
    thought: "",
    action: record.solution,
    parsed: { type: CODE_ACTIONS.implement, argument: record.solution },
    observation: `The final program as logged. Hidden tests: ${solved ? "passed" : "failed"} (is_solved: ${String(solved)}); test output was not published.`,
    done: true,
    answer: null,
    state: { recorded: true },
  });
  const feedback = solved ? "Solved: the hidden tests passed (is_solved: true, as logged)." : "Not solved: the hidden tests failed (is_solved: false, as logged).";
  builder.endTrial({
    outcome: solved ? "success" : "failure",
    reason: feedback,
    evaluation: { verdict: solved ? "pass" : "fail", score: solved ? 1 : 0, feedback, evaluatorKind: "unit-tests", oracle: true, details: { recorded: true, line: record.line, iteration: iterations, hidden: true } },
  });
  builder.end(solved ? "success" : "failure");
  return { config: builder.config, title: record.id, cell: { taskId: record.id, arm: options.descriptor.label }, drafts: builder.drafts };
}
