import type { RunStore } from "@/lib/db/store";
import { AppError } from "@/lib/domain/errors";
import { foldRun, type TrialView } from "@/lib/domain/fold-run";
import { asRunId } from "@/lib/domain/ids";
import { INSIGHTS_TEMPLATE, InsightsParseError, MAX_INSIGHTS, parseInsights, renderInsightsPrompt, type TaskExperience } from "@/lib/domain/insights";
import type { InsightProvenance, MemoryEntry } from "@/lib/domain/memory-store";
import type { ModelPort } from "@/lib/engine/ports";
import { environmentEntry } from "@/lib/environments/registry";
import type { MemoryStoreService } from "./memory-store-service";

/**
 * ExpeL's insight extraction (Zhao et al., AAAI 2024, §4.1 experience gathering, §4.2 insight
 * extraction) as a server service: it gathers, per task, the failed trials (with their reflections)
 * and the successful ones of an experiment's runs (or of listed runs), renders one extraction prompt
 * per task family ({@link INSIGHTS_TEMPLATE}), asks the Self-Reflection model through the app's
 * model port (so the call is recorded in the response cache and the demo model answers it offline),
 * parses the numbered list and stores each insight in a memory store with its provenance. The pure
 * parts are lib/domain/insights.ts; docs/decisions/0038-expel-insights.md.
 */

/** What an extraction needs: the run store, the experiments' run ids, the memory stores and the model port. */
export interface InsightExtractionDeps {
  store: RunStore;
  experimentRunIds: (experimentId: string) => Promise<string[]>;
  memoryStores: MemoryStoreService;
  model: ModelPort;
}

/** An extraction's input: an experiment or a list of runs, the target store, optionally the model. */
export interface ExtractInsightsInput {
  experimentId?: string;
  runIds?: readonly string[];
  store: string;
  /** The Self-Reflection model to ask; default the runs' own reflector model. */
  modelId?: string;
  /** At most this many tasks in the prompt (those with both a failure and a success first). Default 12. */
  maxTasks?: number;
}

/** One family's extraction: the prompt sent, the reply, and the insights stored. */
export interface FamilyExtraction {
  environment: string;
  prompt: string;
  reply: string;
  insights: MemoryEntry[];
  provenance: InsightProvenance;
}

/** Longest reply asked for (a list of at most {@link MAX_INSIGHTS} one-line rules). */
const MAX_OUTPUT_TOKENS = 1024;

/** A trial's steps as `Thought n: …` / `Action n: …` / `Observation n: …` lines. */
export function trajectoryText(trial: TrialView): string {
  const lines: string[] = [];
  for (const step of trial.steps) {
    if (step.thought) lines.push(`Thought ${step.step}: ${step.thought.text}`);
    if (step.action) lines.push(`Action ${step.step}: ${step.action.text}`);
    if (step.observation) lines.push(`Observation ${step.step}: ${step.observation.text}`);
  }
  return lines.join("\n");
}

/** One run as the extraction reads it: its task, its Self-Reflection model and its finished trials. */
export interface GatheredRun {
  runId: string;
  environment: string;
  taskId: string;
  task: string;
  reflectorModel: string;
  trials: TrialView[];
}

/**
 * Extracts and stores insights; one model call per task family among the runs.
 * @throws AppError("invalid-input") when neither an experiment nor runs are given, when the runs
 *   hold no finished trial to learn from, or when the model's reply holds no list (the message
 *   quotes the reply); AppError("not-found") for an unknown experiment or run. A model call
 *   error propagates as the port throws it. Nothing is stored unless every family's reply parsed.
 */
export async function extractInsights(deps: InsightExtractionDeps, input: ExtractInsightsInput): Promise<FamilyExtraction[]> {
  const runIds = input.experimentId ? await deps.experimentRunIds(input.experimentId) : [...(input.runIds ?? [])];
  if (runIds.length === 0) {
    throw new AppError("invalid-input", input.experimentId ? `Experiment ${input.experimentId} has no runs yet: run it first (cli experiment run …).` : "Name an experiment (--experiment <id>) or runs to extract insights from.");
  }
  const runs = await Promise.all(runIds.map((runId) => gatherRun(deps.store, runId)));
  const byFamily = new Map<string, GatheredRun[]>();
  for (const run of runs) byFamily.set(run.environment, [...(byFamily.get(run.environment) ?? []), run]);
  const planned: Array<Omit<FamilyExtraction, "insights" | "reply"> & { texts: () => Promise<{ reply: string; texts: string[] }> }> = [];
  for (const [environment, familyRuns] of byFamily) {
    const tasks = experiencesOf(familyRuns).slice(0, input.maxTasks ?? 12);
    if (tasks.length === 0) continue;
    const usedRunIds = [...new Set(tasks.flatMap((task) => [...task.failures, ...task.successes].map((trial) => trial.runId)))];
    const modelId = input.modelId ?? familyRuns[0]!.reflectorModel;
    const prompt = renderInsightsPrompt(environmentEntry(environment).label, tasks);
    const provenance: InsightProvenance = { experimentId: input.experimentId ?? null, runIds: usedRunIds, template: { id: INSIGHTS_TEMPLATE.id, version: INSIGHTS_TEMPLATE.version }, model: modelId };
    planned.push({ environment, prompt, provenance, texts: () => askForInsights(deps.model, modelId, prompt) });
  }
  if (planned.length === 0) {
    throw new AppError("invalid-input", "These runs have no finished trial to learn from (every run is still queued or was cancelled before a trial ended): run them first.");
  }
  // Every family's reply is read before anything is stored, so a bad reply leaves the store as it was.
  const replies = [];
  for (const plan of planned) replies.push(await plan.texts());
  const out: FamilyExtraction[] = [];
  for (const [index, plan] of planned.entries()) {
    const { reply, texts } = replies[index]!;
    const insights = await deps.memoryStores.addInsights({ store: input.store, environment: plan.environment, insights: texts, provenance: plan.provenance });
    out.push({ environment: plan.environment, prompt: plan.prompt, reply, insights, provenance: plan.provenance });
  }
  return out;
}

async function askForInsights(model: ModelPort, modelId: string, prompt: string): Promise<{ reply: string; texts: string[] }> {
  const response = await model.generate(
    { role: "reflector", settings: { modelId, temperature: 0, maxOutputTokens: MAX_OUTPUT_TOKENS }, messages: [{ role: "user", content: prompt }], stopSequences: [] },
    { replay: "live" },
  );
  try {
    return { reply: response.text, texts: parseInsights(response.text, MAX_INSIGHTS) };
  } catch (error) {
    if (error instanceof InsightsParseError) throw new AppError("invalid-input", `${error.message} (model ${modelId})`);
    throw error;
  }
}

async function gatherRun(store: RunStore, runId: string): Promise<GatheredRun> {
  const record = await store.getRun(asRunId(runId));
  if (!record) throw new AppError("not-found", `No run ${runId}: check the id (cli runs lists them).`);
  const state = foldRun(await store.list(record.id, record.rootBranchId));
  const config = state.config ?? record.config;
  const family = environmentEntry(config.environment).family;
  const summary = family.summarize(family.parseTask(config.task));
  return {
    runId,
    environment: config.environment,
    taskId: config.taskId,
    task: summary.setting ? `${summary.title}\n${summary.setting}` : summary.title,
    reflectorModel: config.models.reflector.modelId,
    trials: state.trials.filter((trial) => trial.outcome !== null),
  };
}

/**
 * ExpeL's experience pool per task (§4.1): the failed trials with their reflections and the
 * successful ones of every run of the task, in run order. Tasks with both a failure and a success
 * come first (the comparison ExpeL learns most from), then those with only failures, then only
 * successes; tasks with no finished trial are left out.
 */
export function experiencesOf(runs: readonly GatheredRun[]): TaskExperience[] {
  const byTask = new Map<string, TaskExperience>();
  for (const run of runs) {
    const task = byTask.get(run.taskId) ?? { taskId: run.taskId, task: run.task, failures: [], successes: [] };
    for (const trial of run.trials) {
      const row = { runId: run.runId, trial: trial.trial, trajectory: trajectoryText(trial), reflection: trial.reflection?.text ?? null };
      (trial.outcome === "success" ? task.successes : task.failures).push(row);
    }
    byTask.set(run.taskId, task);
  }
  const rank = (task: TaskExperience) => (task.failures.length > 0 && task.successes.length > 0 ? 0 : task.failures.length > 0 ? 1 : 2);
  return [...byTask.values()].filter((task) => task.failures.length + task.successes.length > 0).sort((a, b) => rank(a) - rank(b));
}
