import { z } from "zod";
import type { RunStore } from "@/lib/db/store";
import type { JudgeReply } from "@/lib/domain/environment";
import { AppError } from "@/lib/domain/errors";
import { foldRun, type TrialView } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import type { RunRecord } from "@/lib/db/store";
import {
  TRACE_JUDGE_RUBRIC,
  TOOL_RESULTS_HEADING,
  TRACE_REFLECT_TEMPLATE,
  mentionsReferenceAnswer,
  renderTraceScratchpad,
  traceFeedback,
  traceReflectionRequestSchema,
  type PersonGrade,
  type TraceEvaluator,
  type TraceReflectionOutcome,
  type TraceReflectionProvenance,
  type TraceReflectionRequest,
  type TraceReflectionResponse,
} from "@/lib/domain/trace-reflection";
import type { ModelPort } from "@/lib/engine/ports";
import { cleanReflection } from "@/lib/engine/prompts";
import { renderTemplate } from "@/lib/engine/render-template";
import { environmentEntry } from "@/lib/environments/registry";
import { evaluateOpenTrial } from "@/lib/environments/open/evaluator";
import type { ServerContext } from "./app-context";
import type { MemoryStoreService } from "./memory-store-service";

/**
 * Reflexion on imported traces (docs/decisions/0039): for each run of an import (or listed runs), the
 * chosen Evaluator ({@link TraceEvaluator}) decides whether its last trial failed; each failure gets
 * one Self-Reflection call through the app's model port (recorded in the response cache; the demo
 * model answers offline, lib/domain/trace-reflection-demo.ts) with the chosen template version, and
 * the reflection is stored in a memory store with its provenance — the outside agent reads it back
 * with `cli memory export` / `GET /api/memory-stores/<name>/reflections`. A failure already reflected
 * on in that store with the same template, Evaluator and model is found, not paid for again.
 */

/** What the service needs: the runs, the experiments' run ids, the memory stores, the model port and the template library. */
export interface TraceReflectionDeps {
  store: RunStore;
  experimentRunIds: (experimentId: string) => Promise<string[]>;
  memoryStores: MemoryStoreService;
  model: ModelPort;
  /** Resolves a library version reference to the template's id, version number, text and version id. */
  resolveTemplate: (reference: string) => Promise<{ id: string; version: number; text: string; versionId: string | null }>;
}

/** The model used when none is named: the offline demo model (a scripted stand-in). */
export const DEFAULT_TRACE_MODEL = "demo";

/** Longest reflection asked for (tokens). */
const MAX_REFLECTION_TOKENS = 400;
/** Longest judge reply asked for (tokens). */
const MAX_JUDGE_TOKENS = 600;
/** The most tool results shown to the judge in its notes (characters). */
const MAX_JUDGE_NOTES_CHARS = 6000;

/** The task fields the reflection and the judge read from an imported trace's task snapshot (the `external` family's; other families give what they have). */
const traceTaskSchema = z.object({ input: z.string().nullable().optional(), target: z.string().nullable().optional() }).loose();

/** One run as read for reflecting: its record, its last finished trial and the task text. */
interface TraceUnderReview {
  record: RunRecord;
  trial: TrialView;
  task: string;
  target: string | null;
}

/**
 * Runs the Evaluator and the Self-Reflection on an import's traces.
 * @throws AppError("invalid-input") for a bad request (neither or both of experimentId and runIds, a bad store name, `person` without grades);
 *   AppError("not-found") for an unknown experiment, run or template version. A model error propagates as the port throws it,
 *   after the reflections written so far are stored (each is stored as soon as it is written).
 */
export async function reflectOnTraces(deps: TraceReflectionDeps, request: TraceReflectionRequest): Promise<TraceReflectionResponse> {
  const input = traceReflectionRequestSchema.parse(request);
  const grades = input.grades ?? {};
  const modelId = input.modelId ?? DEFAULT_TRACE_MODEL;
  const template = input.template ? await deps.resolveTemplate(input.template) : { ...TRACE_REFLECT_TEMPLATE, versionId: null };
  const runIds = input.experimentId ? await deps.experimentRunIds(input.experimentId) : [...(input.runIds ?? [])];
  if (runIds.length === 0) throw new AppError("invalid-input", `Experiment ${input.experimentId} has no runs: import traces into it first (cli import-traces <file>).`);
  if (input.evaluator === "person" && Object.keys(grades).length === 0) {
    throw new AppError("invalid-input", "The person Evaluator needs grades: mark traces pass or fail in the reflect panel of the import, or pass --grades <file.json> ({\"<run id>\": \"fail\", …}).");
  }
  const outcomes: TraceReflectionOutcome[] = [];
  let written = 0;
  for (const runId of runIds) {
    const review = await readTrace(deps.store, runId);
    const base = { runId, title: review ? titleOf(review) : runId, taskId: review?.record.config.taskId ?? "" };
    if (!review) {
      outcomes.push({ ...base, verdict: "skipped", verdictSource: "no finished trial", reflection: null, alreadyStored: false, note: "The run has no finished trial to judge.", oracle: false });
      continue;
    }
    const verdict = await verdictOf(deps, input.evaluator, review, modelId, grades[runId]);
    if (verdict.verdict !== "fail") {
      outcomes.push({ ...base, verdict: verdict.verdict, verdictSource: verdict.source, reflection: null, alreadyStored: false, note: verdict.note, oracle: verdict.oracle });
      continue;
    }
    const provenance: TraceReflectionProvenance = {
      kind: "trace-reflection",
      evaluator: input.evaluator,
      verdictSource: verdict.source,
      template: { id: template.id, version: template.version, versionId: template.versionId },
      model: modelId,
      experimentId: input.experimentId ?? null,
      importedFrom: review.record.config.provenance?.source ?? null,
      oracle: verdict.oracle,
    };
    const environment = review.record.config.environment;
    const eventId = sourceEventId(review.trial, provenance);
    const existing = await deps.memoryStores.entryForSource(input.store, environment, review.record.config.taskId, eventId);
    if (existing) {
      outcomes.push({ ...base, verdict: "fail", verdictSource: verdict.source, reflection: existing.text, alreadyStored: true, note: verdict.note, oracle: verdict.oracle });
      continue;
    }
    const text = await reflect(deps.model, modelId, template.text, review, verdict.feedback);
    const stored = await deps.memoryStores.addTraceReflection({
      store: input.store,
      environment,
      taskId: review.record.config.taskId,
      text,
      source: { runId, branchId: review.record.rootBranchId, trial: review.trial.trial, eventId },
      reflectedOn: provenance,
    });
    if (stored.added) written += 1;
    outcomes.push({ ...base, verdict: "fail", verdictSource: verdict.source, reflection: stored.entry.text, alreadyStored: !stored.added, note: verdict.note, oracle: verdict.oracle });
  }
  return {
    store: input.store,
    evaluator: input.evaluator,
    model: modelId,
    template: { id: template.id, version: template.version, versionId: template.versionId },
    outcomes,
    written,
    failures: outcomes.filter((outcome) => outcome.verdict === "fail").length,
    skipped: outcomes.filter((outcome) => outcome.verdict === "skipped").length,
    unmatchedGrades: Object.keys(grades).filter((runId) => !runIds.includes(runId)),
  };
}

/**
 * The memory entry's source event id: the judged trial's evaluation (or start) event, with the
 * Evaluator, template version and model — so two templates or Evaluators can be compared in one
 * store, while asking again with the same choice finds the stored reflection.
 */
export function sourceEventId(trial: TrialView, provenance: Pick<TraceReflectionProvenance, "evaluator" | "template" | "model">): string {
  const template = provenance.template.versionId ?? `${provenance.template.id}@v${provenance.template.version}`;
  return `trace-reflection:${trial.evaluation?.eventId ?? trial.startEventId}:${provenance.evaluator}:${template}:${provenance.model}`;
}

async function readTrace(store: RunStore, runId: string): Promise<TraceUnderReview | null> {
  const record = await store.getRun(asRunId(runId));
  if (!record) throw new AppError("not-found", `No run ${runId}: check the id (cli runs lists them; cli import-traces prints an import's runs).`);
  const state = foldRun(await store.list(record.id, record.rootBranchId));
  const trial = [...state.trials].reverse().find((candidate) => candidate.outcome !== null);
  if (!trial) return null;
  const config = state.config ?? record.config;
  const parsed = traceTaskSchema.safeParse(config.task);
  const fromSummary = taskText(config, record.title);
  const task = parsed.success && parsed.data.input ? parsed.data.input : fromSummary;
  return { record, trial, task, target: parsed.success ? (parsed.data.target ?? null) : null };
}

interface VerdictResult {
  verdict: "pass" | "fail" | "skipped";
  source: string;
  /** The `{feedback}` of the reflection prompt. */
  feedback: string;
  note: string | null;
  /** The verdict used the expected answer the trace records. */
  oracle: boolean;
}

async function verdictOf(deps: TraceReflectionDeps, evaluator: TraceEvaluator, review: TraceUnderReview, modelId: string, grade: PersonGrade | undefined): Promise<VerdictResult> {
  if (evaluator === "person") {
    if (!grade) return { verdict: "skipped", source: "no grade", feedback: "", note: "No person's grade for this trace: mark it pass or fail first.", oracle: false };
    return { verdict: grade.verdict, source: `graded ${grade.verdict} by a person`, feedback: grade.note?.trim() ? `A person graded it ${grade.verdict}: ${grade.note.trim()}` : `A person graded it ${grade.verdict}.`, note: null, oracle: false };
  }
  if (evaluator === "trace") {
    const evaluation = review.trial.evaluation;
    if (!evaluation) return { verdict: "skipped", source: "no score in the trace", feedback: "", note: "The trace carries no score or label: choose the judge or a person as the Evaluator.", oracle: false };
    const source = typeof evaluation.details.source === "string" ? evaluation.details.source : `the trace's ${evaluation.evaluatorKind} verdict`;
    const feedback = evaluation.feedback || `${source}: ${evaluation.verdict} (score ${evaluation.score}).`;
    // A trace that records an expected answer was scored against it (Inspect's `target`): an oracle signal.
    // So is a score whose explanation speaks of a reference answer, and that explanation may state it.
    const recordedTarget = evaluation.oracle || review.target !== null;
    const namesReference = !recordedTarget && mentionsReferenceAnswer(feedback);
    const note = recordedTarget
      ? "Oracle signal: the score compared the answer with the expected answer recorded in the trace (hidden from the reflection prompt)."
      : namesReference
        ? "Oracle signal: the score's explanation speaks of a reference answer, which the trace does not record as its target, so it could not be hidden: read the lesson before you hand it back."
        : null;
    return { verdict: evaluation.verdict, source, feedback, note, oracle: recordedTarget || namesReference };
  }
  const answer = review.trial.answer ?? lastObservation(review.trial);
  const verdict = await evaluateOpenTrial(
    { id: judgeTaskId(review.record.config.taskId), title: review.record.title.slice(0, 200) || "Imported trace", prompt: review.task.slice(0, 20_000) || "(the trace recorded no task)", referenceNotes: judgeNotes(review), rubric: TRACE_JUDGE_RUBRIC },
    answer,
    { judge: (messages) => judgeCall(deps.model, modelId, messages), template: null, trial: review.trial.trial },
  );
  const score = verdict.judge ? `${verdict.judge.weightedScore.toFixed(2)} ${verdict.verdict === "pass" ? "≥" : "<"} ${verdict.judge.threshold.toFixed(2)}` : "no answer";
  return {
    verdict: verdict.verdict,
    source: `rubric judge ${modelId}: ${score}`,
    feedback: verdict.feedback,
    note: review.target ? "Oracle signal: the judge saw the expected answer recorded in the trace." : null,
    oracle: review.target !== null,
  };
}

/**
 * The task as its family summarises it; the run's title when the family cannot read the task
 * snapshot (a run re-imported from this app's own OTLP export keeps only the task's id).
 */
function taskText(config: RunRecord["config"], title: string): string {
  const family = environmentEntry(config.environment).family;
  try {
    const summary = family.summarize(family.parseTask(config.task));
    return summary.setting ? `${summary.title}\n${summary.setting}` : summary.title;
  } catch {
    return title;
  }
}

/** The run's title with the task's first line when the title does not say it (traces of one agent share its name). */
function titleOf(review: TraceUnderReview): string {
  const task = review.task.split("\n")[0]?.trim() ?? "";
  if (!task || review.record.title.includes(task)) return review.record.title;
  return `${review.record.title}: ${task.length > 80 ? `${task.slice(0, 79)}…` : task}`;
}

/** The grader's notes: the expected answer when the trace has one, then what the tools returned (cut). */
function judgeNotes(review: TraceUnderReview): string {
  const results = review.trial.steps.flatMap((step) => (step.observation ? [`- ${step.action?.text ?? "tool"} → ${step.observation.text}`] : [])).join("\n");
  const notes = [review.target ? `Expected answer: ${review.target}` : "", results ? `${TOOL_RESULTS_HEADING}\n${results}` : ""].filter(Boolean).join("\n\n");
  return notes.slice(0, MAX_JUDGE_NOTES_CHARS);
}

/** An open task id from any task id (`openTaskSchema` allows at most 120 characters). */
function judgeTaskId(taskId: string): string {
  return taskId.slice(0, 120) || "trace";
}

function lastObservation(trial: TrialView): string | null {
  const last = trial.steps.at(-1);
  return last?.observation?.text ?? null;
}

async function judgeCall(model: ModelPort, modelId: string, messages: Parameters<ModelPort["generate"]>[0]["messages"]): Promise<JudgeReply> {
  const response = await model.generate({ role: "evaluator", settings: { modelId, temperature: 0, maxOutputTokens: MAX_JUDGE_TOKENS }, messages, stopSequences: [] }, { replay: "live" });
  return { text: response.text, callId: `trace-judge:${response.requestHash}`, modelId };
}

async function reflect(model: ModelPort, modelId: string, templateText: string, review: TraceUnderReview, feedback: string): Promise<string> {
  const scratchpad = renderTraceScratchpad(review.trial.steps.map((step) => ({ thought: step.thought?.text ?? null, action: step.action?.text ?? null, observation: step.observation?.text ?? null })));
  const prompt = renderTemplate(templateText, { task: review.task, scratchpad, feedback: traceFeedback(review.trial.answer ?? lastObservation(review.trial), feedback, review.target) }).text;
  const response = await model.generate(
    { role: "reflector", settings: { modelId, temperature: 0, maxOutputTokens: MAX_REFLECTION_TOKENS }, messages: [{ role: "user", content: prompt }], stopSequences: [] },
    { replay: "live" },
  );
  const text = cleanReflection(response.text);
  if (!text) throw new AppError("invalid-input", `The Self-Reflection model ${modelId} answered with an empty reflection for run ${review.record.id}; try again or choose another model.`);
  return text;
}

/** The service's dependencies from the app's server context (the API route and the CLI share it). */
export function traceReflectionDeps(context: Pick<ServerContext, "store" | "experiments" | "memoryStores" | "engineDeps" | "templates" | "spending">): TraceReflectionDeps {
  return {
    store: context.store,
    experimentRunIds: async (experimentId) => {
      await context.experiments.get(experimentId);
      return context.experiments.runIds(experimentId);
    },
    memoryStores: context.memoryStores,
    // Calls outside runs answer to the budgets per person and lab too (lib/server/spending-limit-service.ts).
    model: context.spending.guard(context.engineDeps.model),
    resolveTemplate: async (reference) => {
      const resolved = await context.templates.resolve(reference);
      if (resolved.template.role !== "reflector") {
        throw new AppError("invalid-input", `${reference} is a template for the ${resolved.template.role} role; choose a Self-Reflection template (cli templates list --env external).`);
      }
      return { id: resolved.template.id, version: resolved.version.number, text: resolved.version.text, versionId: resolved.version.id };
    },
  };
}
