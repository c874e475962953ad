import { splitBudget, type Budget } from "@/lib/domain/budget";
import { AppError } from "@/lib/domain/errors";
import {
  experimentDefinitionSchema,
  type ExperimentDefinition,
  type ExperimentDefinitionInput,
  type ExperimentListItem,
  type ExperimentRecord,
  type ExperimentSummary,
} from "@/lib/domain/experiment";
import { armUnitOf, summarizeExperiment, type CellInput } from "@/lib/domain/experiment-summary";
import { compareArms, type PairedComparison } from "@/lib/domain/experiment-tests";
import { allowedActions, branchStatus } from "@/lib/domain/status";
import { supportedStrategiesOf } from "@/lib/domain/strategies";
import type { RunStore } from "@/lib/db/store";
import type { StoredExperimentRecord } from "@/lib/db/stored-experiment";
import { MAX_EXPERIMENT_RUNS, MAX_EXPERIMENT_TASKS } from "@/lib/domain/workload-limits";
import { eventLoopYielder } from "./event-loop-slices";
import { environmentEntry } from "@/lib/environments/registry";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { leaseStateOf } from "./lease-owner";
import { maintainedSummary } from "./maintained-summary";
import type { ResolvedTaskSet, RunService } from "./run-service";
import type { TemplateService } from "./template-service";
import type { WorkerPool } from "./worker-pool";
import { assertRequestTemplates } from "./run-config-factory";
import { pinTasks } from "./dataset-pin";
import { cellArmKey, parseCellArmKey, repetitionCacheScope, repetitionSeed } from "@/lib/domain/experiment-cells";
import { datasetDifference } from "@/lib/domain/dataset-pin";
import { repeatsOf, type Arm, type DatasetPin } from "@/lib/domain/experiment";
import type { RoleModelsRequest } from "@/lib/domain/config";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * Use cases of experiments (lib/domain/experiment.ts) behind the HTTP routes and
 * `cli experiment`: define and start one (every (task, arm, repetition) cell gets exactly one
 * run, queued for the worker pool, in `recorded` cache mode scoped to its repetition so arms share
 * identical calls), pin its tasks by content, resume it where it stopped (refused when the task
 * set changed), cancel it, and summarize it from the runs' summaries.
 */
export class ExperimentService {
  constructor(
    private readonly store: RunStore,
    private readonly runs: RunService,
    private readonly workers: WorkerPool,
  ) {}

  /** The template library, set by the composition root; arms with `templateVersions` need it. */
  private templates: TemplateService | null = null;

  /** Wires the template library (lib/server/app-context.ts). */
  useTemplates(templates: TemplateService): void {
    this.templates = templates;
  }

  /**
   * Validates and records an experiment, then creates its runs (queued).
   * @throws AppError("invalid-input") for an unknown task or a strategy the family does not run;
   *   AppError("not-found") for an unknown task set; AppError("provider-not-configured") for a model without credentials.
   */
  async start(input: ExperimentDefinitionInput, options: { start?: boolean } = {}): Promise<ExperimentRecord> {
    const parsed = experimentDefinitionSchema.safeParse(input);
    if (!parsed.success) throw new AppError("invalid-input", `Not a valid experiment: ${describeIssues(parsed.error, "definition")}`);
    const definition = parsed.data;
    const entry = environmentEntry(definition.environment);
    const supported = supportedStrategiesOf(entry.family);
    for (const arm of definition.arms) {
      if (!supported.includes(arm.strategy)) {
        throw new AppError("invalid-input", `Arm "${arm.label}": the ${entry.label} family does not run the strategy "${arm.strategy}" (it runs ${supported.join(", ")}).`);
      }
      // Before anything is recorded: a flagged template text refuses the whole experiment, not its later runs.
      assertRequestTemplates(arm, definition.environment, arm.label);
    }
    const set = await this.runs.resolvedTaskSet(definition.environment, definition.taskSet);
    const known = [...set.byId.keys()];
    const missing = definition.taskIds.filter((id) => !set.byId.has(id));
    if (missing.length > 0) {
      throw new AppError("invalid-input", `Not in the ${set.name} task set: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}. List its tasks with \`npm run cli -- tasks --env ${definition.environment} --tasks ${definition.taskSet}\`.`);
    }
    // Version references (labels) are pinned to version ids here, so a label moved later changes no run of this experiment.
    const arms = [];
    for (const arm of definition.arms) {
      if (arm.templateVersions === undefined) arms.push(arm);
      else if (!this.templates) throw new AppError("invalid-input", `Arm "${arm.label}": this server has no template library; leave out templateVersions.`);
      else arms.push({ ...arm, templateVersions: await this.templates.canonicalChoice(arm.templateVersions) });
    }
    const taskIds = definition.taskIds.length > 0 ? definition.taskIds : known;
    // Every task of a large set is only known now: the caps apply to the resolved list, before anything is stored.
    assertExperimentSize(definition, taskIds.length, set.name, definition.taskIds.length === 0);
    const dataset = pinTasks(set.byId, taskIds);
    const resolved: ExperimentDefinition = { ...definition, arms, taskIds, dataset };
    const record = await this.store.experiments.createExperiment({ definition: resolved, taskSetName: set.name });
    await this.ensureRuns(record, { ...options, taskSet: set });
    return record;
  }

  /** The record; one that cannot be read whole has `damaged` set and what could be read (lib/db/stored-experiment.ts). */
  async get(id: string): Promise<StoredExperimentRecord> {
    const record = await this.store.experiments.getExperiment(id);
    if (!record) throw new AppError("not-found", `No experiment ${id}. It may have been made with another database (REFLEXION_DB_PATH); \`npm run cli -- experiment list\` shows this one's.`);
    return record;
  }

  /**
   * Creates the runs of cells that have none yet (after a crash between two
   * creations), task by task with every arm of a task next to each other, so the
   * arms of one task run side by side and share their identical calls.
   */
  async ensureRuns(record: ExperimentRecord, options: { start?: boolean; taskSet?: ResolvedTaskSet } = {}): Promise<number> {
    const existing = new Set((await this.store.experiments.listExperimentRuns(record.id)).map((link) => `${link.taskId}\u0000${link.arm}`));
    const { definition } = record;
    let created = 0;
    // The set is read and indexed once, not once per run (a run looks its task up by id).
    const tasks = options.taskSet ?? (await this.runs.resolvedTaskSet(definition.environment, definition.taskSet));
    const yielder = eventLoopYielder();
    // The experiment's budget split evenly over its runs, unless an arm sets its own.
    const share = splitBudget(definition.budget, definition.taskIds.length * definition.arms.length * repeatsOf(definition));
    // Repetition by repetition, so a stopped experiment has whole repetitions rather than one task's repeats.
    for (let repetition = 1; repetition <= repeatsOf(definition); repetition += 1) for (const taskId of definition.taskIds) {
      for (const arm of definition.arms) {
        const armKey = cellArmKey(arm.label, repetition);
        if (existing.has(`${taskId}\u0000${armKey}`)) continue;
        await this.runs.createRun(
          {
            environment: definition.environment,
            taskSet: definition.taskSet,
            taskId,
            strategy: arm.strategy,
            modelId: arm.modelId,
            reflectorModelId: arm.reflectorModelId,
            models: sampledModels(arm, repetitionSeed(arm.seed, repetition, repeatsOf(definition))),
            maxTrials: arm.maxTrials ?? definition.maxTrials,
            memoryWindow: arm.memoryWindow,
            maxStepsPerTrial: arm.maxStepsPerTrial,
            refineRounds: arm.refineRounds,
            templates: arm.templates,
            allowUnknown: arm.allowUnknown,
            templateVersions: arm.templateVersions,
            memoryManagement: arm.memoryManagement,
            budget: arm.budget ?? share,
            adaptiveTrials: arm.adaptiveTrials,
            warmStart: arm.warmStart,
            writeMemory: arm.writeMemory,
            insights: arm.insights,
            replayMode: "recorded",
            // Arms share calls within one repetition of this experiment; a new experiment (or repetition) samples the model afresh, unless its definition names a shared cache scope.
            cacheScope: repetitionCacheScope(definition.cacheScope ?? record.id, repetition),
          },
          { start: false, cell: { experimentId: record.id, taskId, arm: armKey }, taskSet: tasks },
        );
        created += 1;
        await yielder();
      }
      // Workers start on a task as soon as all its arms exist, not after the whole experiment is
      // created (seconds for hundreds of runs). Wakes are coalesced: at most one pass runs, one waits.
      if (options.start !== false) this.workers.wake();
    }
    if (options.start !== false) this.workers.wake();
    return created;
  }

  /**
   * Resumes an experiment where it stopped: missing runs are created, paused ones resumed; interrupted ones the pool takes over anyway.
   * With `budget` (a new experiment budget, split over its runs as at the start), budget-exhausted runs resume with their share.
   */
  async resume(id: string, options: { budget?: Budget | null; taskSet?: string } = {}): Promise<ExperimentRecord> {
    const record = await this.get(id);
    if (record.damaged) throw new AppError("conflict", `${record.damaged} It cannot be resumed.`);
    await this.assertSameTasks(record, options.taskSet);
    await this.ensureRuns(record, { start: false });
    const share = options.budget === undefined ? undefined : splitBudget(options.budget, record.definition.taskIds.length * record.definition.arms.length * repeatsOf(record.definition));
    for (const link of await this.store.experiments.listExperimentRuns(id)) {
      const run = await this.runs.getRun(link.runId);
      const status = await this.runs.status(run);
      if (!allowedActions(status).resume) continue;
      // A budget-exhausted run resumes only with a new budget share (the run service refuses it otherwise).
      if (status !== "budget-exhausted") await this.runs.resume(run.id);
      else if (share !== undefined) await this.runs.resume(run.id, null, { budget: share });
    }
    this.workers.wake();
    return record;
  }

  /**
   * The pin of the tasks an experiment would run on now: from `taskSet` (e.g. a file given again to
   * `cli experiment resume --tasks`) or the experiment's own task set.
   */
  async currentPin(record: ExperimentRecord, taskSet = record.definition.taskSet): Promise<DatasetPin> {
    return pinTasks(await this.runs.tasksById(record.definition.environment, taskSet), record.definition.taskIds);
  }

  /**
   * Refuses to go on when the experiment's tasks changed since it was pinned (the built-in set after an
   * update, or another file given to resume): new runs would run other tasks than the recorded ones.
   * Experiments recorded before pinning have no pin and are not checked.
   * @throws AppError("conflict") naming what changed.
   */
  private async assertSameTasks(record: ExperimentRecord, taskSet?: string): Promise<void> {
    const pinned = record.definition.dataset;
    if (!pinned) return;
    const difference = datasetDifference(pinned, await this.currentPin(record, taskSet));
    if (difference !== null) {
      throw new AppError(
        "conflict",
        `Experiment ${record.id} is pinned to its tasks by content, and they changed: ${difference}. Nothing was run; its recorded runs are kept. Resume with the task file it started on, or start a new experiment on the changed tasks.`,
      );
    }
  }

  /** Cancels every run of the experiment its status lets cancel (`allowedActions`: queued, running, paused, budget-exhausted…; ended ones stay as they are). */
  async cancel(id: string): Promise<ExperimentSummary> {
    await this.get(id);
    for (const link of await this.store.experiments.listExperimentRuns(id)) {
      const run = await this.runs.getRun(link.runId);
      const status = await this.runs.status(run);
      if (allowedActions(status).cancel && status !== "cancelling") await this.runs.cancel(run.id);
    }
    return this.summary(id);
  }

  /** The run ids of an experiment's cells. */
  async runIds(id: string): Promise<string[]> {
    return (await this.store.experiments.listExperimentRuns(id)).map((link) => link.runId);
  }

  /** The results view's data, from run summaries (lib/domain/experiment-summary.ts). */
  async summary(id: string, now = Date.now()): Promise<ExperimentSummary> {
    const record = await this.get(id);
    // A finished experiment's summary is kept with the fingerprint of its cells (lib/server/maintained-summary.ts).
    const summary = await maintainedSummary(this.store.experiments, record, async () => summarizeExperiment(record, await this.cells(record), now, familyDescriptor(record.definition.environment)));
    // The owner only when there is one, so embedded mode's summaries are unchanged.
    return { ...summary, ...(record.damaged ? { damaged: record.damaged } : {}), ...(record.ownerUserId ? { ownerUserId: record.ownerUserId } : {}) };
  }

  /**
   * The paired tests of arm `a` against arm `b` on their common (task, repetition) runs
   * (lib/domain/experiment-tests.ts): exact McNemar on final success, paired bootstraps on AUC and cost.
   * @throws AppError("invalid-input") for a label that is not an arm of the experiment (the message lists them).
   */
  async compare(id: string, a: string, b: string): Promise<PairedComparison[]> {
    const record = await this.get(id);
    const labels = record.definition.arms.map((arm) => arm.label);
    for (const label of [a, b]) {
      if (!labels.includes(label)) throw new AppError("invalid-input", `Experiment ${id} has no arm "${label}"; its arms are ${labels.map((l) => `"${l}"`).join(", ")}.`);
    }
    if (a === b) throw new AppError("invalid-input", `Compare two different arms (both are "${a}").`);
    const cells = await this.cells(record);
    const armOf = (label: string) => {
      const arm = record.definition.arms.find((candidate) => candidate.label === label)!;
      return { label, trials: arm.maxTrials ?? record.definition.maxTrials, units: cells.filter((cell) => cell.arm === label).map(armUnitOf) };
    };
    return compareArms(armOf(a), armOf(b));
  }

  /**
   * Experiments for lists, newest first: people's own by default; `withDerived: true` also lists those an
   * optimisation or a template check made for its evaluations (definition `origin`).
   */
  async list(limit = 50, options: { withDerived?: boolean } = {}): Promise<ExperimentListItem[]> {
    const records = await this.store.experiments.listExperiments(limit, { withDerived: options.withDerived ?? false });
    return Promise.all(
      records.map(async (record) => {
        const summary = await this.listedSummary(record);
        return {
          id: record.id,
          name: record.definition.name,
          createdAt: record.createdAt,
          environment: record.definition.environment,
          arms: record.definition.arms.map((arm) => arm.label),
          tasks: record.definition.taskIds.length,
          status: summary.status,
          done: summary.progress.done,
          total: summary.progress.total,
          provenance: record.provenance,
          ...(record.damaged ? { damaged: record.damaged } : {}),
          ...(record.definition.origin ? { origin: record.definition.origin } : {}),
        };
      }),
    );
  }

  /**
   * The summary a list row shows. A damaged record whose cells cannot be summed up is listed with no
   * progress rather than failing the whole list (its `damaged` message says why).
   */
  private async listedSummary(record: StoredExperimentRecord): Promise<Pick<ExperimentSummary, "status" | "progress">> {
    try {
      return await maintainedSummary(this.store.experiments, record, async () => summarizeExperiment(record, await this.cells(record), Date.now(), familyDescriptor(record.definition.environment)));
    } catch (error) {
      if (!record.damaged) throw error;
      return { status: "stopped", progress: { done: 0, total: 0 } } as Pick<ExperimentSummary, "status" | "progress">;
    }
  }

  /** One store query for all cells; statuses by the one status function (lib/domain/status.ts). */
  private async cells(record: ExperimentRecord): Promise<CellInput[]> {
    const rows = await this.store.experiments.listExperimentCells(record.id);
    const labels = record.definition.arms.map((arm) => arm.label);
    return rows.map((row) => ({
      taskId: row.taskId,
      ...parseCellArmKey(row.arm, labels),
      runId: row.runId,
      summary: row.summary,
      status: branchStatus(row.summary, this.workers.isActive(row.rootBranchId) ? "live" : leaseStateOf(row.lease)),
      // QA: per-trial F1 from the read model (no log is refolded for the live results page).
      ...(row.summary.f1ByTrial && row.summary.f1ByTrial.length > 0 ? { f1ByTrial: row.summary.f1ByTrial } : {}),
    }));
  }
}

/**
 * An arm's per-role model requests with its sampling settings filled in: the arm's `temperature` for
 * every role that names none, and the repetition's seed (lib/domain/experiment-cells.ts `repetitionSeed`).
 */
function sampledModels(arm: Arm, seed: number | undefined): RoleModelsRequest | undefined {
  if (arm.temperature === undefined && seed === undefined) return arm.models;
  const role = (choice: RoleModelsRequest["actor"]) => ({
    ...choice,
    ...(choice?.temperature === undefined && arm.temperature !== undefined ? { temperature: arm.temperature } : {}),
    ...(seed === undefined ? {} : { seed }),
  });
  return { actor: role(arm.models?.actor), reflector: role(arm.models?.reflector), evaluator: role(arm.models?.evaluator) };
}

/**
 * Refuses an experiment past {@link MAX_EXPERIMENT_TASKS} tasks or {@link MAX_EXPERIMENT_RUNS} runs
 * (tasks × arms × repeats), saying how to narrow it. `wholeSet`: the tasks were not named (every task of the set).
 * @throws AppError("invalid-input") naming the limit, the count asked for and what to change.
 */
function assertExperimentSize(definition: ExperimentDefinition, tasks: number, setName: string, wholeSet: boolean): void {
  const runs = tasks * definition.arms.length * repeatsOf(definition);
  const narrow = "Name the tasks to run with taskIds (cli: --task-ids a,b,c) — e.g. the first of the set from `npm run cli -- tasks` — or upload a smaller task set.";
  if (tasks > MAX_EXPERIMENT_TASKS) {
    const what = wholeSet ? `every task of ${setName} (${tasks})` : `${tasks} tasks`;
    throw new AppError("invalid-input", `This experiment would run ${what}; an experiment runs at most ${MAX_EXPERIMENT_TASKS} tasks. Nothing was stored. ${narrow}`);
  }
  if (runs > MAX_EXPERIMENT_RUNS) {
    throw new AppError(
      "invalid-input",
      `This experiment would create ${runs} runs (${tasks} tasks × ${definition.arms.length} arms × ${repeatsOf(definition)} repeats); an experiment creates at most ${MAX_EXPERIMENT_RUNS}. Nothing was stored. Use fewer repeats or arms, or fewer tasks: ${narrow}`,
    );
  }
}

