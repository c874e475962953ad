import fs from "node:fs";
import path from "node:path";
import { taskSetLabel, type CheckArm, type CheckConfig, type CheckTaskSet, type CheckTemplate } from "@/lib/domain/ci-check/config";
import { evaluateCheck, type CheckedTaskSet } from "@/lib/domain/ci-check/evaluate";
import type { CheckReport } from "@/lib/domain/ci-check/report";
import type { ArmInput, ExperimentSummary } from "@/lib/domain/experiment";
import type { ServerContext } from "./app-context";
import { BUILTIN_TASK_SET } from "./run-service";
import { decodeBuffer } from "@/lib/environments/code";
import { availableEnvironments, environmentEntry } from "@/lib/environments/registry";

/**
 * Runs a `cli check` configuration in this process (docs/template-checks.md): one experiment per
 * task set, with the arms, repeats and trials of the config, then the assertions on its summary.
 *
 * Unchanged checks cost nothing: every check of a task set runs in one response-cache scope
 * (`check/<config name>/<task set>`, the experiment definition's `cacheScope`), so a call that an
 * earlier check recorded — same model, settings and prompt, same occurrence in its run, same
 * repetition — is replayed from the cache instead of sent. Only what a changed template changes
 * (its prompts, and the trials that follow from its answers) reaches the model.
 */

/** The check could not be carried out (a template or dataset not found, a provider error, runs that did not end): `cli check` exits 2. */
export class CheckCouldNotRun extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckCouldNotRun";
  }
}

/** Options of {@link runCheck}. */
export interface RunCheckOptions {
  /** Folder that relative dataset and template file paths are read from (the config's folder). */
  baseDir: string;
  /** Sample afresh: the experiments use their own cache scope, not the check's (default false). */
  fresh?: boolean;
  /** Runs executed at once (default 4). */
  concurrency?: number;
  /** Progress lines (each experiment as it starts), e.g. to stderr. */
  log?: (line: string) => void;
}

/** Reads a file relative to `baseDir`, or says which one is missing. */
function readRelative(baseDir: string, file: string, what: string): string {
  const full = path.resolve(baseDir, file);
  if (!fs.existsSync(full) || fs.statSync(full).isDirectory()) throw new CheckCouldNotRun(`The ${what} ${file} was not found (looked at ${full}); paths in the config are relative to its folder.`);
  return decodeBuffer(fs.readFileSync(full));
}

/** The experiment arm of a config arm: library references resolved to version ids, template files read as text. */
async function experimentArm(context: ServerContext, arm: CheckArm, config: CheckConfig, baseDir: string): Promise<ArmInput> {
  const texts: { actor?: string; reflector?: string } = {};
  const versions: { actor?: string; reflector?: string } = {};
  for (const role of ["actor", "reflector"] as const) {
    const choice: CheckTemplate | undefined = arm.templates?.[role];
    if (choice === undefined) continue;
    if (typeof choice === "string") {
      let found;
      try {
        found = await context.templates.resolve(choice);
      } catch (error) {
        throw new CheckCouldNotRun(`Arm "${arm.label}": the ${role} template ${choice} could not be found: ${(error as Error).message}`);
      }
      // An arm runs on every task set, and a library template belongs to one family and role.
      const other = config.taskSets.find((set) => set.family !== found.template.family);
      if (other || found.template.role !== role) {
        const where = other ? `task set "${taskSetLabel(other)}" is ${other.family}` : `it is used as the ${role} template`;
        throw new CheckCouldNotRun(`Arm "${arm.label}": ${choice} is a ${found.template.family} ${found.template.role} template, but ${where}. Give each family its own config file, and each role its own template.`);
      }
      versions[role] = found.version.id;
    } else texts[role] = readRelative(baseDir, choice.file, `${role} template file of arm "${arm.label}":`);
  }
  return {
    label: arm.label,
    strategy: arm.strategy,
    modelId: arm.model,
    ...(arm.temperature === undefined ? {} : { temperature: arm.temperature }),
    ...(Object.keys(texts).length > 0 ? { templates: texts } : {}),
    ...(Object.keys(versions).length > 0 ? { templateVersions: versions } : {}),
  };
}

/**
 * The task set id an experiment of `set` runs on: `builtin`; a dataset file relative to the config,
 * imported (an unchanged file is stored once); or, when no such file exists, an uploaded task set of
 * the family named by its id or its name (`cli task-sets list`).
 */
async function taskSetIdFor(context: ServerContext, set: CheckTaskSet, baseDir: string): Promise<string> {
  if (set.dataset === BUILTIN_TASK_SET) return BUILTIN_TASK_SET;
  const file = path.resolve(baseDir, set.dataset);
  if (!fs.existsSync(file)) {
    const uploaded = (await context.service.listTaskSets()).filter((listed) => listed.environment === set.family && (listed.id === set.dataset || listed.name === set.dataset));
    // The newest of a name, as the picker lists them.
    const newest = uploaded.sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
    if (newest) return newest.id;
  }
  const content = readRelative(baseDir, set.dataset, `dataset of task set "${taskSetLabel(set)}" (a file, or the id or name of an uploaded ${set.family} task set)`);
  return (await context.service.importTaskSet(set.family, path.basename(set.dataset), content)).taskSet.id;
}

/** The response-cache scope shared by every check of one task set of one config. */
export function checkCacheScope(config: Pick<CheckConfig, "name">, set: Pick<CheckTaskSet, "label" | "family">): string {
  return `check/${config.name}/${taskSetLabel(set)}`.slice(0, 200);
}

/** Drives an experiment's runs in this process until none is running; its final summary. */
async function drive(context: ServerContext, experimentId: string, concurrency: number): Promise<ExperimentSummary> {
  const runIds = new Set(await context.experiments.runIds(experimentId));
  const { WorkerPool } = await import("./worker-pool");
  const pool = new WorkerPool(context.store, context.engineDeps, context.bus, { concurrency, accept: (runId) => runIds.has(runId) });
  pool.start();
  await pool.whenIdle();
  await pool.stop();
  for (const runId of runIds) await pool.untilSettled((await context.service.getRun(runId)).rootBranchId, 100);
  return context.experiments.summary(experimentId);
}

/** Refuses a summary whose runs did not all end (a provider error pauses a run; a budget stops it), saying why the first one stopped. */
async function assertEnded(context: ServerContext, summary: ExperimentSummary, label: string): Promise<void> {
  const unfinished = summary.cells.filter((cell) => cell.status !== "ended");
  if (unfinished.length === 0) return;
  const list = unfinished.slice(0, 3).map((cell) => `${cell.taskId}/${cell.arm} (${cell.status})`).join(", ");
  const first = await context.store.getBranchSummary((await context.service.getRun(unfinished[0]!.runId)).rootBranchId);
  const reason = first?.pause ? `The first stopped: ${first.pause.detail}` : first?.error ? `The first failed: ${first.error.message}` : null;
  const why = reason === null ? "" : ` ${reason.trim().replace(/\.?$/, ".")}`;
  throw new CheckCouldNotRun(
    `Task set "${label}": ${unfinished.length} run(s) of experiment ${summary.experiment.id} did not end: ${list}${unfinished.length > 3 ? ", …" : ""}.${why} See the run with \`npm run cli -- events --run ${unfinished[0]!.runId}\`.`,
  );
}

/**
 * Runs the check: per task set, starts and drives its experiment (replaying recorded calls), then evaluates the
 * assertions (lib/domain/ci-check/evaluate.ts).
 * @throws CheckCouldNotRun for a template, dataset or model that cannot be used, or runs that did not end;
 *   AppError from the experiment service for an experiment it refuses (e.g. an unknown task id, a model without credentials).
 */
export async function runCheck(context: ServerContext, config: CheckConfig, options: RunCheckOptions): Promise<CheckReport> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  for (const [index, set] of config.taskSets.entries()) {
    if (!availableEnvironments().includes(set.family)) {
      throw new CheckCouldNotRun(`taskSets[${index}].family: unknown task family "${set.family}"; the registered ones are ${availableEnvironments().join(", ")}.`);
    }
  }
  assertHiddenTestsWhereNeeded(config);
  const arms = [];
  for (const arm of config.arms) arms.push(await experimentArm(context, arm, config, options.baseDir));
  const checked: CheckedTaskSet[] = [];
  const experiments: CheckReport["experiments"] = [];
  const calls = { live: 0, cached: 0 };
  for (const set of config.taskSets) {
    const label = taskSetLabel(set);
    const taskSet = await taskSetIdFor(context, set, options.baseDir);
    const record = await context.experiments.start(
      {
        name: `check ${config.name} · ${label}`.slice(0, 120),
        environment: set.family,
        taskSet,
        taskIds: set.taskIds ?? [],
        arms,
        maxTrials: config.maxTrials,
        repeats: config.repeats,
        concurrency: options.concurrency ?? 4,
        ...(options.fresh ? {} : { cacheScope: checkCacheScope(config, set) }),
        origin: { kind: "check", id: config.name },
      },
      { start: false },
    );
    log(`${label}: experiment ${record.id}, ${record.definition.taskIds.length} tasks × ${arms.length} arms × ${config.repeats} repetitions, up to ${config.maxTrials} trials.`);
    const summary = await drive(context, record.id, options.concurrency ?? 4);
    for (const arm of summary.arms) {
      calls.live += arm.calls.live;
      calls.cached += arm.calls.cached;
    }
    await assertEnded(context, summary, label);
    checked.push({ label, summary, hiddenTests: environmentEntry(set.family).hiddenTests });
    experiments.push({ taskSet: label, experimentId: summary.experiment.id });
  }
  const { assertions, arms: rows } = evaluateCheck(config, checked);
  return { name: config.name, assertions, arms: rows, experiments, calls, seconds: (Date.now() - started) / 1000, startedAt: new Date(started).toISOString() };
}

/**
 * Refuses, before any run, a `false-positive-rate` assertion on a task set whose family's Evaluator
 * reports no hidden tests (a false positive is an internal pass with a hidden fail: nothing to count).
 * @throws CheckCouldNotRun naming the assertion and the families that do report hidden tests.
 */
export function assertHiddenTestsWhereNeeded(config: CheckConfig): void {
  config.assertions.forEach((assertion, index) => {
    if (assertion.metric !== "false-positive-rate") return;
    const without = config.taskSets.filter((set) => (assertion.taskSet === undefined || taskSetLabel(set) === assertion.taskSet) && !environmentEntry(set.family).hiddenTests);
    if (without.length === 0) return;
    const withHidden = availableEnvironments().filter((family) => environmentEntry(family).hiddenTests);
    throw new CheckCouldNotRun(
      `assertions[${index}].metric: false-positive-rate needs hidden tests, which the ${without.map((set) => `"${taskSetLabel(set)}"`).join(", ")} task set's family does not report (families with hidden tests: ${withHidden.join(", ")}); name one of those with taskSet.`,
    );
  });
}
