// Over 400 lines: the run use cases (create, status, pause/resume/cancel, edits, branches, fork) share the
// store, the worker pool and the lease-holding append; forks are the next piece to split out.

import { recordedInsightsForFork } from "@/lib/engine/insights-carry";
import { createHash } from "node:crypto";
import { DEFAULT_MEMORY_WINDOW, breakpointsSchema, type BreakpointsInput } from "@/lib/domain/config";
import { writeMemorySchema, type WriteMemory } from "@/lib/domain/memory-store";
import type { BranchSummary, CreateRunRequest, EditRequest, EnvironmentsResponse, RunStatus, RunSummary, TaskListResponse } from "@/lib/domain/api";
import { AppError } from "@/lib/domain/errors";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { allowedActions, branchStatus, type CallActivity } from "@/lib/domain/status";
import { asBranchId, asRunId, type BranchId } from "@/lib/domain/ids";
import type { ReplayMode } from "@/lib/engine/ports";
import { supportedStrategiesOf } from "@/lib/engine/strategies";
import type { ExperimentCellKey } from "@/lib/db/experiment-store";
import type { RunRecord, RunStore } from "@/lib/db/store";
import { environmentEntry, runnableEnvironments } from "@/lib/environments/registry";
import { modelTimeoutFor } from "@/lib/llm/model-timeouts";
import { resolveModelId } from "@/lib/llm/provider-registry";
import { assertForkable, assertWritable } from "@/lib/bundles/read-only";
import { assertTemplateText } from "@/lib/domain/template-check";
import { editDrafts, staleEditMessage } from "./edit-drafts";
import { requiredTemplateVariablesOf, templateRulesFor, templateVariablesOf } from "./template-rules";
import { META_PROMPT_VARIABLES } from "@/lib/domain/optimiser/meta-prompt";
import { buildRunConfig } from "./run-config-factory";
import { budgetResumeDrafts } from "./budget-resume";
import type { Budget } from "@/lib/domain/budget";
import type { TemplateService } from "./template-service";
import { leaseStateOf, newLeaseOwner } from "./lease-owner";
import type { RunEventBus } from "./run-event-bus";
import { providerOfModel, type WorkerPool } from "./worker-pool";
import { readTaskSet } from "./task-set-reader";
import { eventLoopYielder } from "./event-loop-slices";
import { readStoredEventPage } from "./event-page";
import { MAX_TASKS_PAGE } from "@/lib/domain/workload-limits";

/** The id of the task set built into each family. */
export const BUILTIN_TASK_SET = "builtin";

/** Most load problems a task list carries (a bad file can have one per line). */
const MAX_LISTED_PROBLEMS = 100;

/** A task set read once and indexed by task id, for creating many runs on it. */
export interface ResolvedTaskSet {
  id: string;
  name: string;
  /** Task id → the task as stored (what a run copies into its config). */
  byId: Map<string, Record<string, unknown>>;
}

/**
 * Use cases behind the HTTP routes and the CLI: create and list runs, read their
 * events, pause/resume, and edits while paused. Every change is an appended event.
 */
export class RunService {
  constructor(
    private readonly store: RunStore,
    private readonly workers: WorkerPool,
    private readonly bus: RunEventBus,
    private readonly env: Record<string, string | undefined> = process.env,
    /** Written into pause and cancel requests (`web`, `cli`, …). */
    private readonly requestedBy = "web",
  ) {}

  /** The template library, set by the composition root; without it, version references are refused. */
  private templates: TemplateService | null = null;

  /** Wires the template library (lib/server/app-context.ts). */
  useTemplates(templates: TemplateService): void {
    this.templates = templates;
  }

  /**
   * Checks a prompt edit's text (lib/domain/template-check.ts: size, unknown and missing placeholders
   * unless `allowUnknown`; a library `versionId` was checked when it was saved) and resolves its library
   * version (`versionId`, `saveAsVersion`); other edits pass through.
   * @throws AppError("invalid-input") naming the placeholders or the size limit.
   */
  private async resolveEdit(edit: EditRequest, state: ReturnType<typeof foldRun>): Promise<EditRequest> {
    if (edit.kind === "prompt" && edit.versionId === undefined && state.config) {
      assertTemplateText(edit.text, templateRulesFor(state.config.environment, edit.role), {
        allowUnknown: edit.allowUnknown,
        what: `The ${edit.role === "actor" ? "Actor" : "Self-Reflection"} template`,
      });
    }
    if (edit.kind !== "prompt" || (edit.versionId === undefined && edit.saveAsVersion === undefined)) return edit;
    if (!this.templates) throw new AppError("invalid-input", "This server has no template library; send the prompt text without versionId or saveAsVersion.");
    const config = state.config;
    if (!config) throw new AppError("conflict", "The run has no templates yet.");
    return this.templates.resolvePromptEdit(edit, config.templates[edit.role], config.environment);
  }

  /** The task families offered for new runs, in registry order (not the imported-traces family: its runs are only imported). */
  environments(): EnvironmentsResponse {
    return {
      environments: runnableEnvironments().map((id) => {
        const entry = environmentEntry(id);
        return {
          id,
          label: entry.label,
          importFormats: entry.importFormats,
          defaultMaxStepsPerTrial: entry.family.defaultMaxStepsPerTrial ?? 6,
          fixedStepsPerTrial: entry.family.fixedStepsPerTrial ?? null,
          defaultMemoryWindow: entry.family.defaultMemoryWindow === undefined ? DEFAULT_MEMORY_WINDOW : entry.family.defaultMemoryWindow,
          supportedStrategies: supportedStrategiesOf(entry.family),
          templateVariables: { ...templateVariablesOf(entry), optimiser: [...META_PROMPT_VARIABLES] },
          requiredTemplateVariables: requiredTemplateVariablesOf(entry),
          evaluatorUsesModel: entry.family.evaluatorUsesModel ?? false,
        };
      }),
    };
  }

  /**
   * Tasks of a task set (`builtin` or an uploaded set id) as summaries: all of them, or the page
   * `offset`…`offset + limit` (`total` counts them all, so a caller knows whether more follow).
   */
  async listTasks(environment: string, taskSet: string, page: { offset?: number; limit?: number } = {}): Promise<TaskListResponse> {
    const entry = environmentEntry(environment);
    const { tasks, name, id, problems } = await this.taskSet(environment, taskSet);
    const offset = page.offset ?? 0;
    const shown = page.limit === undefined ? tasks.slice(offset) : tasks.slice(offset, offset + page.limit);
    const summaries = [];
    const yielder = eventLoopYielder();
    for (const task of shown) {
      summaries.push(entry.family.summarize(entry.family.parseTask(task)));
      await yielder();
    }
    return {
      taskSet: { id, name, environment: entry.family.id },
      tasks: summaries,
      problems: problems.slice(0, MAX_LISTED_PROBLEMS),
      total: tasks.length,
      offset,
    };
  }

  /**
   * Parses an uploaded dataset file and stores it as a task set; importing the
   * same content again returns the existing set. With `requireTaskId`, nothing is
   * stored unless that task is in the file.
   * @throws AppError("invalid-dataset") when no task can be read; AppError("not-found") for a missing `requireTaskId`.
   */
  async importTaskSet(environment: string, name: string, content: string, options: { requireTaskId?: string } = {}): Promise<TaskListResponse> {
    const entry = environmentEntry(environment);
    const { tasks, problems } = await readTaskSet(entry, name, content);
    if (tasks.length === 0) {
      throw new AppError("invalid-dataset", `No task could be read from ${name}. ${problems.slice(0, 3).join(" ")}`.trim());
    }
    if (options.requireTaskId !== undefined) {
      const ids = tasks.map((task) => entry.family.summarize(entry.family.parseTask(task)).id);
      if (!ids.includes(options.requireTaskId)) {
        throw new AppError("not-found", `Task "${options.requireTaskId}" is not in ${name} (${ids.length} tasks; list them with the tasks command).`);
      }
    }
    const contentHash = createHash("sha256").update(content).digest("hex");
    const saved = await this.store.saveTaskSet({ name, environment: entry.family.id, tasks, problems, contentHash });
    return this.listTasks(environment, saved.id, { limit: MAX_TASKS_PAGE });
  }

  /**
   * Deletes an uploaded task set. Recorded runs keep the task they copied, so nothing recorded is lost.
   * @throws AppError("invalid-input") for `builtin`; AppError("not-found") for an unknown id.
   */
  async deleteTaskSet(id: string): Promise<void> {
    if (id === BUILTIN_TASK_SET) throw new AppError("invalid-input", "The built-in task set cannot be deleted; give the id of an uploaded set (GET /api/task-sets or `npm run cli -- task-sets list`).");
    if (!(await this.store.deleteTaskSet(id))) throw new AppError("not-found", `No task set ${id}. List the uploaded sets with GET /api/task-sets or \`npm run cli -- task-sets list\`.`);
  }

  /**
   * A task set's tasks indexed by id once, for creating many runs on it ({@link createRun}'s `taskSet`).
   * @throws AppError("not-found") for an unknown task set; AppError("invalid-input") for a family whose runs are only imported.
   */
  async resolvedTaskSet(environment: string, taskSet: string): Promise<ResolvedTaskSet> {
    const entry = environmentEntry(environment);
    // A family whose runs are only imported (agent traces) has no world to run a task in.
    if (entry.descriptor.runsImportedOnly) throw new AppError("invalid-input", `${entry.label}: runs of this family are only imported, never run here (its agent's tools and world are elsewhere). Import traces with \`cli import-traces <file>\` or POST /api/imports/traces.`);
    const set = await this.taskSet(environment, taskSet);
    // Reading a task back costs ~50 µs: 10,000 of them are handed out in slices, not one half-second block.
    const byId = new Map<string, Record<string, unknown>>();
    const yielder = eventLoopYielder();
    for (const task of set.tasks) {
      byId.set(entry.family.summarize(entry.family.parseTask(task)).id, task);
      await yielder();
    }
    return { id: set.id, name: set.name, byId };
  }

  /**
   * A task set's tasks as stored (the JSON each run copies into its config), by task id.
   * @throws AppError("not-found") for an unknown task set; AppError("invalid-input") for a family whose runs are only imported.
   */
  async tasksById(environment: string, taskSet: string): Promise<Map<string, unknown>> {
    return (await this.resolvedTaskSet(environment, taskSet)).byId;
  }

  /** The uploaded task sets, newest first, with their stored task counts (their tasks are not read). */
  async listTaskSets(): Promise<Array<{ id: string; name: string; environment: string; taskCount: number; createdAt: string }>> {
    return this.store.listTaskSets();
  }

  private async taskSet(environment: string, taskSet: string) {
    const entry = environmentEntry(environment);
    if (taskSet === BUILTIN_TASK_SET) {
      return { id: BUILTIN_TASK_SET, name: "Built-in", tasks: [...entry.builtinTasks], problems: [] as string[] };
    }
    const stored = await this.store.getTaskSet(taskSet);
    if (!stored || stored.environment !== entry.family.id) {
      throw new AppError("not-found", `No ${environment} task set "${taskSet}". Upload the file again or pick "builtin".`);
    }
    return { id: stored.id, name: stored.name, tasks: stored.tasks, problems: stored.problems };
  }

  /**
   * Creates a run; it is queued (status `queued`) until a worker claims it. The
   * pool of this process is woken at once (unless `start` is false).
   * @throws AppError("not-found") for an unknown task; AppError("provider-not-configured") for a model whose provider has no credentials.
   */
  async createRun(request: CreateRunRequest, options: { start?: boolean; cell?: ExperimentCellKey; taskSet?: ResolvedTaskSet } = {}): Promise<RunRecord> {
    const entry = environmentEntry(request.environment);
    // Fail fast, before anything is recorded: the models' providers and their time limits.
    const roleModelIds = [request.models?.actor?.modelId, request.models?.reflector?.modelId, request.models?.evaluator?.modelId];
    for (const modelId of [request.modelId, request.reflectorModelId, ...roleModelIds].filter((id): id is string => id !== undefined)) {
      resolveModelId(modelId, this.env);
      try {
        modelTimeoutFor(providerOfModel(modelId), this.env);
      } catch (error) {
        throw new AppError("invalid-input", `${error instanceof Error ? error.message : String(error)} Fix it on the server and restart.`);
      }
    }
    const set = options.taskSet?.id === request.taskSet ? options.taskSet : await this.resolvedTaskSet(request.environment, request.taskSet);
    const task = set.byId.get(request.taskId);
    if (!task) throw new AppError("not-found", `Task "${request.taskId}" is not in the ${set.name} task set (${set.byId.size} tasks; list them with \`npm run cli -- tasks --env ${request.environment} --tasks ${request.taskSet}\` or in the task picker).`);
    const wantsLibrary = request.templateVersions !== undefined || (request.memoryManagement?.kind === "summarize" && request.memoryManagement.summarizerVersionId !== undefined);
    if (wantsLibrary && !this.templates) throw new AppError("invalid-input", "This server has no template library; leave out templateVersions.");
    const resolved = wantsLibrary && this.templates ? await this.templates.resolveRunTemplates(request) : {};
    const config = buildRunConfig(request, entry, task, set.name, resolved);
    const title = entry.family.summarize(entry.family.parseTask(task)).title;
    const run = await this.store.createRun({ config, title, cell: options.cell });
    if (options.start !== false) this.workers.wake();
    return run;
  }

  async getRun(runId: string): Promise<RunRecord> {
    const run = await this.store.getRun(asRunId(runId));
    if (!run) throw new AppError("not-found", `No run ${runId}. It may have been made with another database (REFLEXION_DB_PATH).`);
    return run;
  }

  /**
   * The branch of `run` named by `branchId` (the root branch when omitted).
   * @throws AppError("not-found") when the branch does not belong to the run.
   */
  async branchOf(run: RunRecord, branchId?: string | null): Promise<BranchId> {
    if (!branchId) return run.rootBranchId;
    const branch = await this.store.getBranch(asBranchId(branchId));
    if (!branch || branch.runId !== run.id) throw new AppError("not-found", `Run ${run.id} has no branch ${branchId}.`);
    return branch.id;
  }

  /**
   * Events visible on a branch (root by default) with `seq > after`, in seq order: all of them, or
   * with `limit` the first `limit` (a page) and whether more follow.
   * @throws AppError("not-found") when the run or the branch does not exist.
   */
  async events(runId: string, after = 0, branchId?: string | null, limit?: number): Promise<{ run: RunRecord; branchId: BranchId; events: RunEvent[]; more: boolean }> {
    const run = await this.getRun(runId);
    const branch = await this.branchOf(run, branchId);
    if (limit === undefined) return { run, branchId: branch, events: await this.store.list(run.id, branch, after), more: false };
    return { run, branchId: branch, ...(await readStoredEventPage(this.store, run.id, branch, after, limit)) };
  }

  /**
   * A branch's status (root by default), from its summary read model and its
   * lease — the one status function, lib/domain/status.ts.
   */
  async status(run: RunRecord, options: { branchId?: BranchId } = {}): Promise<RunStatus> {
    return (await this.liveness(run, options.branchId ?? run.rootBranchId)).status;
  }

  /** Status plus the model call a worker is waiting on now (with its start time), for "running for 12 s". */
  async liveness(run: RunRecord, branchId: BranchId): Promise<{ status: RunStatus; activeCall: CallActivity | null; lastSeq: number }> {
    const summary = await this.store.getBranchSummary(branchId);
    if (!summary) throw new AppError("not-found", `Run ${run.id} has no branch ${branchId}.`);
    const lease = await this.store.getLease(branchId);
    const leaseState = this.workers.isActive(branchId) ? "live" : leaseStateOf(lease);
    const status = branchStatus(summary, leaseState);
    const activeCall = leaseState === "live" ? (this.workers.currentCall(branchId) ?? lease?.activity ?? null) : null;
    return { status, activeCall, lastSeq: summary.lastSeq };
  }

  /** The call in flight on a branch driven by this process, with its text so far (null otherwise). */
  liveCall(branchId: BranchId): { call: CallActivity; text: string } | null {
    return this.workers.liveCall(branchId);
  }

  async summary(run: RunRecord): Promise<RunSummary> {
    const summary = await this.store.getBranchSummary(run.rootBranchId);
    const { status, activeCall } = await this.liveness(run, run.rootBranchId);
    return {
      id: run.id,
      createdAt: run.createdAt,
      environment: run.config.environment,
      taskId: run.config.taskId,
      title: run.title,
      strategy: run.config.strategy,
      modelId: summary?.actorModelId ?? run.config.models.actor.modelId,
      status,
      activeCall,
      setting: this.settingOf(run),
      trials: summary?.trialsEnded ?? 0,
      outcome: summary?.outcome ?? null,
      // Only when the run has one, so summaries of embedded mode's runs are unchanged.
      ...(run.ownerUserId ? { ownerUserId: run.ownerUserId } : {}),
    };
  }

  /** The task's setting (e.g. the household room), from the family; null when it has none or the task no longer parses. */
  private settingOf(run: RunRecord): string | null {
    try {
      const family = environmentEntry(run.config.environment).family;
      return family.summarize(family.parseTask(run.config.task)).setting ?? null;
    } catch {
      return null;
    }
  }

  async listRuns(limit = 50): Promise<RunSummary[]> {
    const runs = await this.store.listRuns(limit);
    return Promise.all(runs.map((run) => this.summary(run)));
  }

  /**
   * Asks a branch (root by default) to pause: appends a `pause-request` and
   * returns at once (status `pausing`); the worker driving it pauses at its next
   * step boundary, in whatever process it runs. A branch no worker holds
   * (queued, interrupted) is paused at once.
   * @throws AppError("conflict") when it has ended or failed.
   */
  async pause(runId: string, branchId?: string | null): Promise<RunStatus> {
    const run = await this.getRun(runId);
    const branch = await this.branchOf(run, branchId);
    assertWritable(run, branch, "pause");
    const status = await this.status(run, { branchId: branch });
    if (!allowedActions(status).pause) {
      // Already paused or on its way there (or to an end): asking again changes nothing.
      if (status === "paused" || status === "budget-exhausted" || status === "pausing" || status === "cancelling") return status;
      throw new AppError("conflict", `Run ${runId} has ${status === "ended" ? "ended" : "failed"}; there is nothing to pause.`);
    }
    const request = draft("pause-request", { requestedBy: this.requestedBy, note: null });
    const direct = status === "queued" || status === "interrupted";
    if (!direct || !(await this.appendHoldingLease(run, branch, [request, draft("run-pause", { reason: "user", detail: "Paused by the user." })]))) {
      await this.append(run, branch, [request]);
    }
    return this.status(run, { branchId: branch });
  }

  /**
   * Resumes a paused branch (root by default), or an interrupted one: appends
   * `run-resume` and queues it for a worker (status `queued`, then `running`).
   * With `step`, the run performs one action and pauses again. `budget` replaces the
   * budget in force (`budget-edit`); a `budget-exhausted` branch resumes only with room left.
   */
  async resume(runId: string, branchId?: string | null, options: { step?: boolean; budget?: Budget | null } = {}): Promise<RunRecord> {
    const run = await this.getRun(runId);
    const branch = await this.branchOf(run, branchId);
    assertWritable(run, branch, "resume");
    const status = await this.status(run, { branchId: branch });
    const allowed = allowedActions(status);
    if (!(options.step ? allowed.step : allowed.resume)) {
      if (status === "running" || status === "queued" || status === "pausing" || status === "cancelling") {
        throw new AppError("conflict", `Run ${runId} is already ${status}.`);
      }
      throw new AppError("conflict", `Run ${runId} has ${status}; only a paused, interrupted or budget-exhausted run can be resumed.`);
    }
    const budgetDrafts = status === "budget-exhausted" || options.budget !== undefined ? budgetResumeDrafts(foldRun(await this.store.list(run.id, branch)), status === "budget-exhausted", options.budget) : [];
    if (status === "interrupted") {
      // The holder died: clear its lease so the branch is plainly queued.
      const lease = await this.store.getLease(branch);
      if (lease) await this.store.releaseLease(branch, lease.owner);
    }
    await this.append(run, branch, [...budgetDrafts, draft("run-resume", { reason: status === "interrupted" ? "recovery" : "user", step: options.step ?? false })]);
    this.workers.wake();
    return run;
  }

  /**
   * Cancels a branch (root by default): appends a `cancel-request` and returns
   * at once (status `cancelling`); the worker driving it aborts the model call
   * or sandbox job in flight and records `run-cancel` + `run-end` (cancelled).
   * A branch no worker holds (queued, paused, interrupted) is cancelled at once.
   * @throws AppError("conflict") when it has already ended.
   */
  async cancel(runId: string, branchId?: string | null): Promise<RunStatus> {
    const run = await this.getRun(runId);
    const branch = await this.branchOf(run, branchId);
    assertWritable(run, branch, "cancel");
    const status = await this.status(run, { branchId: branch });
    if (!allowedActions(status).cancel) throw new AppError("conflict", `Run ${runId} has ${status === "ended" ? "ended" : "failed"}; there is nothing to cancel.`);
    if (status === "cancelling") return status;
    const request = draft("cancel-request", { requestedBy: this.requestedBy, note: null });
    const direct = status === "queued" || status === "paused" || status === "budget-exhausted" || status === "interrupted";
    if (direct) {
      const summary = await this.store.getBranchSummary(branch);
      const trials = summary?.trialsStarted ?? 0;
      const ended = [request, draft("run-cancel", { reason: "Cancelled by the user." }), draft("run-end", { outcome: "cancelled", trials })];
      if (await this.appendHoldingLease(run, branch, ended)) return this.status(run, { branchId: branch });
    }
    await this.append(run, branch, [request]);
    return this.status(run, { branchId: branch });
  }

  /**
   * Runs `fn` holding the branch's lease (waiting up to 5 s for another request's short hold to end),
   * so no worker starts driving the branch and no other edit appends in between.
   * @throws AppError("conflict") when a worker holds the branch throughout.
   */
  private async holdingLease<T>(branchId: BranchId, fn: () => Promise<T>): Promise<T> {
    const owner = `${newLeaseOwner()}:edit`;
    const deadline = Date.now() + 5_000;
    for (;;) {
      const lease = await this.store.getLease(branchId);
      if (lease && leaseStateOf(lease) === "dead") await this.store.releaseLease(branchId, lease.owner);
      if (await this.store.claimLease(branchId, owner, 10_000)) break;
      if (Date.now() > deadline) throw new AppError("conflict", "A worker is driving this branch; edits wait until it is paused.");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    try {
      return await fn();
    } finally {
      await this.store.releaseLease(branchId, owner);
    }
  }

  /**
   * Appends `drafts` while holding the branch's lease, so no worker can start
   * driving it in between (a dead holder's lease is cleared first). False when
   * a live worker holds it: then the caller falls back to a request event.
   */
  private async appendHoldingLease(run: RunRecord, branchId: BranchId, drafts: EventDraft[]): Promise<boolean> {
    const owner = `${newLeaseOwner()}:request`;
    const lease = await this.store.getLease(branchId);
    if (lease && leaseStateOf(lease) === "dead") await this.store.releaseLease(branchId, lease.owner);
    if (!(await this.store.claimLease(branchId, owner, 5_000))) return false;
    try {
      const summary = await this.store.getBranchSummary(branchId);
      // Re-check under the lease: the log may have moved on (e.g. the run ended) since the status was read.
      if (!summary || summary.status === "ended" || summary.status === "error") return true;
      await this.append(run, branchId, drafts);
      return true;
    } finally {
      await this.store.releaseLease(branchId, owner);
    }
  }

  /**
   * Records an edit of a paused branch (a reflection, the memory, a template, a model, the next action)
   * as an event. An edit made against `baseSeq` is refused when the branch has moved on since (another
   * client's edit, a resume): the message lists what changed, so the editor can reload and re-apply.
   * @throws AppError("conflict") unless the status allows edits (`allowedActions`); AppError("stale-edit")
   *   (HTTP 409) for a stale `baseSeq`; AppError("invalid-input") for a template the check refuses.
   */
  async edit(runId: string, request: EditRequest, branchId?: string | null): Promise<RunRecord> {
    const run = await this.getRun(runId);
    const branch = await this.branchOf(run, branchId);
    assertWritable(run, branch, "edit");
    const status = await this.status(run, { branchId: branch });
    if (!allowedActions(status).edit) {
      throw new AppError("conflict", `Edits are allowed only while the run is paused (it is ${status}). Pause it (or set a breakpoint) first.`);
    }
    // Under the branch's lease, so two edits from the same base cannot both pass the check below.
    await this.holdingLease(branch, async () => {
      const events = await this.store.list(run.id, branch);
      const state = foldRun(events);
      const baseSeq = request.baseSeq;
      if (baseSeq !== undefined && baseSeq > state.lastSeq) {
        throw new AppError("invalid-input", `baseSeq ${baseSeq} is ahead of this run's log (its newest event is seq ${state.lastSeq}); send the lastSeq of the run as you read it.`);
      }
      if (baseSeq !== undefined && state.lastSeq > baseSeq) {
        throw new AppError("stale-edit", staleEditMessage(events.filter((event) => event.seq > baseSeq), baseSeq));
      }
      if (state.status !== "paused") throw new AppError("conflict", "Edits are allowed only while the run is paused. Pause it (or set a breakpoint) first.");
      const drafts = editDrafts(state, await this.resolveEdit(request, state));
      if (drafts.length > 0) await this.append(run, branch, drafts);
    });
    return run;
  }

  /** Changes a branch's breakpoints (allowed until it ends; kinds left out are off); recorded as `settings-edit`. */
  async setBreakpoints(runId: string, input: BreakpointsInput, branchId?: string | null): Promise<RunRecord> {
    const breakpoints = breakpointsSchema.parse(input);
    const run = await this.getRun(runId);
    const branch = await this.branchOf(run, branchId);
    assertWritable(run, branch, "change the breakpoints of");
    const state = foldRun(await this.store.list(run.id, branch));
    if (!allowedActions(state.status).breakpoints) {
      throw new AppError("conflict", `Run ${runId} has ${state.status}; its breakpoints can no longer change.`);
    }
    if (JSON.stringify(state.breakpoints) === JSON.stringify(breakpoints)) return run;
    await this.append(run, branch, [
      draft("settings-edit", { target: "breakpoints", oldValue: state.breakpoints, newValue: breakpoints, note: null }),
    ]);
    return run;
  }

  /** A run's branches with their status and own model-call counts, root first (from the summary read model). */
  async branches(runId: string): Promise<BranchSummary[]> {
    const run = await this.getRun(runId);
    const branches = await this.store.listBranches(run.id);
    return Promise.all(
      branches.map(async (branch) => {
        const summary = await this.store.getBranchSummary(branch.id);
        if (!summary) throw new AppError("internal", `Branch ${branch.id} has no summary.`);
        return {
          id: branch.id,
          parentBranchId: branch.parentBranchId,
          forkSeq: branch.forkSeq,
          createdAt: branch.createdAt,
          status: await this.status(run, { branchId: branch.id }),
          replayMode: summary.replayMode,
          reason: summary.reason,
          trials: summary.trialsEnded,
          outcome: summary.outcome,
          liveCalls: summary.own.liveCalls,
          cachedCalls: summary.own.cachedCalls,
        };
      }),
    );
  }

  /**
   * Forks a branch at a checkpoint (or at seq 1, the run's start) into a new
   * branch that shares the events up to there, applies `edits`, and queues it
   * for a worker (the pool here is woken unless `start` is false). `replay: "recorded"` serves unchanged model calls
   * from the response cache; `live` calls the models again.
   * @throws AppError("invalid-input") when `atSeq` is not a checkpoint on the branch's path.
   */
  async fork(
    runId: string,
    request: {
      atSeq: number;
      fromBranchId?: string | null;
      replay: ReplayMode;
      edits?: EditRequest[];
      reason?: "edit" | "replay";
      breakpoints?: BreakpointsInput;
      /** The fork's own memory store to write to; a fork never inherits the run's `writeMemory`. */
      writeMemory?: WriteMemory | null;
    },
    options: { start?: boolean } = {},
  ): Promise<{ run: RunRecord; branchId: BranchId }> {
    const run = await this.getRun(runId);
    assertForkable(run);
    const parent = await this.branchOf(run, request.fromBranchId);
    const path = await this.store.list(run.id, parent);
    const at = path.find((event) => event.seq === request.atSeq);
    if (!at || (at.type !== "checkpoint" && at.type !== "run-start")) {
      const checkpoints = path.filter((event) => event.type === "checkpoint").map((event) => event.seq);
      throw new AppError(
        "invalid-input",
        `Forks start at a checkpoint: seq ${request.atSeq} is ${at ? `a ${at.type} event` : "not on this branch"}. Checkpoints here: 1 (run start)${checkpoints.length ? `, ${checkpoints.join(", ")}` : ""}.`,
      );
    }
    const edits = request.edits ?? [];
    const prefix = foldRun(path.filter((event) => event.seq <= request.atSeq));
    const resolvedEdits: EditRequest[] = [];
    for (const edit of edits) resolvedEdits.push(await this.resolveEdit(edit, prefix));
    const editEvents = resolvedEdits.flatMap((edit) => editDrafts(prefix, edit));
    if (request.breakpoints !== undefined) {
      const newValue = breakpointsSchema.parse(request.breakpoints);
      if (JSON.stringify(newValue) !== JSON.stringify(prefix.breakpoints)) {
        editEvents.push(draft("settings-edit", { target: "breakpoints", oldValue: prefix.breakpoints, newValue, note: "set when forking" }));
      }
    }
    const branch = await this.store.createBranch({ runId: run.id, parentBranchId: parent, forkSeq: request.atSeq });
    await this.append(run, branch.id, [
      draft("branch-start", {
        parentBranchId: parent,
        forkSeq: request.atSeq,
        reason: request.reason ?? (edits.length > 0 ? "edit" : "replay"),
        replayMode: request.replay,
        edits: editEvents.map((edit) => edit.type),
        ...(request.writeMemory ? { writeMemory: writeMemorySchema.parse(request.writeMemory) } : {}),
      }),
      ...editEvents,
      // A recorded replay from before the parent carried ExpeL insights in gets the parent's record, not a fresh read of the store.
      ...recordedInsightsForFork(path, request.atSeq, request.replay),
    ]);
    if (options.start !== false) this.workers.wake();
    return { run, branchId: branch.id };
  }

  private async append(run: RunRecord, branchId: BranchId, drafts: EventDraft[]): Promise<void> {
    const stored = await this.store.append(run.id, branchId, drafts);
    this.bus.publish(run.id, stored);
  }
}
