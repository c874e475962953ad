import { AppError } from "@/lib/domain/errors";
import { budgetFromFlags, budgetOptions, type BudgetFlags } from "./budget-flags";
import fs from "node:fs";
import path from "node:path";
import cliProgress from "cli-progress";
import { Option, type Command } from "commander";
import { z } from "zod";
import { strategySchema } from "@/lib/domain/config";
import { armSchema, type ArmInput, type ExperimentSummary } from "@/lib/domain/experiment";
import { environmentEntry } from "@/lib/environments/registry";
import { familyOption, stepDefaultsHelp } from "./family-help";
import { describePgError, isDatabaseUnreachable } from "@/lib/db/pg/describe-pg-error";
import type { ServerContext } from "@/lib/server/app-context";
import { cliContext } from "./context";
import { BUILTIN_TASK_SET } from "@/lib/server/run-service";
import { leaseStateOf } from "@/lib/server/lease-owner";
import type { BranchJob } from "@/lib/server/job-queue/port";
import { modelIdArg, roleModelOption, withRoleFlags, type RoleModelFlags } from "./model-flags";
import { positiveInt, rangedInt, readDatasetFile } from "./options";
import { writeStream } from "./write-stream";
import { armWithVersionReferences } from "./template-commands";
import { shortHash } from "@/lib/domain/dataset-pin";
import { report } from "./experiment-report";
import { EXPERIMENT_EXPORT_FORMATS, EXPERIMENT_FIGURES, type ExperimentExportFormat, type ExperimentFigure } from "@/lib/server/experiment-export";
import { registerCompareCommand, temperatureArg } from "./experiment-compare";
import { DEMO_MODEL_ID, isDemoModel } from "@/lib/domain/model-id";
import { adaptiveLimitText } from "@/lib/domain/adaptive-limit-text";
import { processAdaptiveGate } from "@/lib/llm/rate-limits/adaptive-gate";
import { PROCESS_ID } from "@/lib/llm/rate-limits/adaptive-publish";
import { adaptiveLimitsOf } from "@/lib/llm/rate-limits/adaptive-report";
import { expelRunWarning, insightsOption, withInsightsStore } from "./insight-commands";

interface RunOptions extends RoleModelFlags, BudgetFlags {
  /** ExpeL arms' insights store (lib/cli/insight-commands.ts). */
  insights?: string;
  env: string;
  tasks: string;
  taskIds?: string;
  arms?: string;
  armsFile?: string;
  model: string;
  trials: number;
  maxSteps?: number;
  allowUnknown?: boolean;
  concurrency?: number;
  name?: string;
  json?: boolean;
  detach?: boolean;
  here?: boolean;
  repeats: number;
  temperature?: number;
  seed?: number;
}

/** The arms of `--arms none,reflexion` (label = strategy) or of `--arms-file arms.json` (a JSON list of labelled arm configurations). */
function armsOf(options: RunOptions): ArmInput[] {
  if (options.armsFile) {
    const raw: unknown = JSON.parse(fs.readFileSync(options.armsFile, "utf8"));
    // An arm that names no model runs on --model (default demo), as the --arms arms do.
    const withModel = Array.isArray(raw) ? raw.map((arm: unknown) => (isRecord(arm) && arm.modelId === undefined ? { ...arm, modelId: options.model } : arm)) : raw;
    const parsed = z.array(armSchema).min(1).safeParse(withModel);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? `arm ${issue.path.join(".")}` : "the file"}: ${issue.message}`).join("; ");
      throw new Error(`${options.armsFile}: ${problems} (expected a JSON list of arms like [{"label": "reflexion", "strategy": "reflexion"}]; see --help)`);
    }
    return parsed.data.map(armWithVersionReferences);
  }
  const names = (options.arms ?? "none,reflexion").split(",").map((name) => name.trim()).filter(Boolean);
  const seen = new Map<string, number>();
  return names.map((name) => {
    const strategy = strategySchema.safeParse(name);
    if (!strategy.success) throw new Error(`--arms: "${name}" is not a strategy (${strategySchema.options.join(", ")}); use --arms-file for labelled configurations.`);
    // A strategy named twice (an A/A check: two identical arms) gets its own label, `reflexion-2`.
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return { label: count === 1 ? name : `${name}-${count}`, strategy: strategy.data, modelId: options.model };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `none vs reflexion on qa built-in`, shortened to the 120 characters a name may have. */
function defaultName(arms: readonly ArmInput[], family: string, tasks: string): string {
  const name = `${arms.map((arm) => arm.label).join(" vs ")} on ${family} ${tasks === BUILTIN_TASK_SET ? "built-in" : path.basename(tasks)}`;
  return name.length <= 120 ? name : `${name.slice(0, 119)}…`;
}

/** Whether this process hands runs to the workers (shared mode, `REFLEXION_DATABASE_URL`) rather than drives them itself. */
function sharedMode(context: ServerContext): boolean {
  return context.jobs.kind === "pg-boss";
}

/**
 * Shared mode: one job (priority batch) for each of the experiment's runs whose root branch is
 * runnable and not held by a live worker, so `cli worker` processes drive them (an idle one at once).
 * Resolves to the number of runs handed over.
 */
async function handToWorkers(context: ServerContext, experimentId: string): Promise<number> {
  const jobs: BranchJob[] = [];
  for (const runId of await context.experiments.runIds(experimentId)) {
    const run = await context.service.getRun(runId);
    const summary = await context.store.getBranchSummary(run.rootBranchId);
    if (summary?.status !== "running" || leaseStateOf(await context.store.getLease(run.rootBranchId)) === "live") continue;
    jobs.push({ runId: run.id, branchId: run.rootBranchId, priority: "batch" });
  }
  if (jobs.length > 0) await context.jobs.enqueue(jobs);
  return jobs.length;
}

/**
 * Follows the experiment until none of its runs is running, with a progress bar on stderr: its runs
 * are driven here (`here`: at most `concurrency` at once, the embedded default and `--here`) or by the
 * workers of shared mode. Resolves with the final summary.
 */
async function execute(context: ServerContext, experimentId: string, concurrency: number, here: boolean): Promise<ExperimentSummary> {
  const runIds = new Set(await context.experiments.runIds(experimentId));
  const { WorkerPool } = await import("@/lib/server/worker-pool");
  const pool = new WorkerPool(context.store, context.engineDeps, context.bus, { concurrency, accept: (runId) => runIds.has(runId) });
  const first = await context.experiments.summary(experimentId);
  // The ETA is the summary's (from the pace so far), not the bar's own guess: its payload key is `pace`,
  // because cli-progress fills a token named `eta` itself (bare seconds, "INF" at the start).
  const bar = new cliProgress.SingleBar(
    { format: "{bar} {value}/{total} runs | {pace} | {name}", stream: process.stderr, noTTYOutput: true, notTTYSchedule: 5_000, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  const armModels = new Set(first.arms.map((arm) => arm.modelId).filter((modelId) => !isDemoModel(modelId)));
  // The adaptive limits of the arms' models, when this process drives the runs (shared mode's workers report theirs on /jobs).
  const ratesText = () => {
    if (!here) return "";
    const models = adaptiveLimitsOf(processAdaptiveGate.snapshots().map((snapshot) => ({ ...snapshot, process: PROCESS_ID }))).filter((model) => armModels.has(model.modelId));
    return models.length === 0 ? "" : ` | ${models.map(adaptiveLimitText).join(" · ")}`;
  };
  const etaText = (summary: ExperimentSummary) =>
    (summary.progress.done === summary.progress.total ? "done" : summary.progress.etaMs === null ? "ETA —" : `ETA ${Math.ceil(summary.progress.etaMs / 1000)} s`) + ratesText();
  bar.start(first.progress.total, first.progress.done, { name: first.experiment.definition.name, pace: etaText(first) });
  const tick = setInterval(() => {
    void context.experiments.summary(experimentId).then((summary) => bar.update(summary.progress.done, { pace: etaText(summary) }), () => undefined);
  }, 500);
  try {
    if (here) {
      pool.start();
      await pool.whenIdle();
    }
    await pool.stop();
    // Another worker (the web server's pool) may have taken some of the runs: wait until none is running anywhere.
    for (const runId of runIds) {
      const run = await throughOutages(() => context.service.getRun(runId));
      await throughOutages(() => pool.untilSettled(run.rootBranchId, here ? 200 : 500));
    }
    const summary = await throughOutages(() => context.experiments.summary(experimentId));
    bar.update(summary.progress.done, { pace: etaText(summary) });
    return summary;
  } finally {
    clearInterval(tick);
    // Also on an error: the bar's redraw timer would keep the process alive.
    bar.stop();
  }
}

/** How long a follower waits for a database that went away before it gives up, ms. */
const OUTAGE_PATIENCE_MS = 5 * 60_000;

/**
 * Runs `read`, and while the database is unreachable (shared mode's PostgreSQL restarting, a
 * dropped connection) says so once on stderr and tries again every second, for at most
 * {@link OUTAGE_PATIENCE_MS}: following an experiment should outlast a restart, as the workers do.
 * @throws the last error once the patience is spent, or at once for any other error.
 */
async function throughOutages<T>(read: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let said = false;
  for (;;) {
    try {
      const value = await read();
      if (said) process.stderr.write("\n[experiment] the database is back.\n");
      return value;
    } catch (error) {
      if (!isDatabaseUnreachable(error) || Date.now() - started > OUTAGE_PATIENCE_MS) throw error;
      if (!said) process.stderr.write(`\n[experiment] the database is unreachable: ${describePgError(error)} — waiting for it (the workers go on; Ctrl-C stops following).\n`);
      said = true;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/**
 * Says which runs stopped without ending (paused by a provider error or a person) and how to go
 * on; returns the exit code: 0 when every run ended, 1 otherwise (as `run` does for a provider failure).
 */
function reportUnfinished(summary: ExperimentSummary): number {
  const stopped = summary.cells.filter((cell) => cell.status !== "ended" && cell.status !== "error");
  const failed = summary.cells.filter((cell) => cell.status === "error");
  if (stopped.length === 0 && failed.length === 0) return 0;
  if (stopped.length > 0) {
    const list = stopped.slice(0, 5).map((cell) => `${cell.taskId}/${cell.arm} (${cell.status})`).join(", ");
    process.stderr.write(`${stopped.length} run(s) did not end: ${list}${stopped.length > 5 ? ", …" : ""}. See why with \`npm run cli -- events --run <id>\`; continue with: npm run cli -- experiment resume --id ${summary.experiment.id}\n`);
  }
  if (failed.length > 0) process.stderr.write(`${failed.length} run(s) failed with an internal error; see \`npm run cli -- events --run ${failed[0]!.runId}\`.\n`);
  return 1;
}


/** `cli experiment run|resume|show|export|compare|list`: experiments on the same database as the web app (they appear in the UI). */
export function registerExperimentCommands(program: Command): void {
  const experiment = program.command("experiment").description("Run ReAct vs Reflexion (or any arms) over a task set, with success-by-trial curves.");

  experiment
    .command("run")
    .description("Define an experiment (tasks × arms), execute its runs and print the results: here, or in shared mode (REFLEXION_DATABASE_URL) by the `cli worker` processes while this command follows (--here: drive them in this process).")
    .addOption(familyOption())
    .requiredOption("--tasks <file|builtin>", 'a dataset file or "builtin"')
    .option("--task-ids <ids>", "comma-separated task ids (default: every task of the set)")
    .option("--arms <strategies>", "comma-separated strategies, each an arm labelled by its name (default none,reflexion)")
    .option("--arms-file <file>", "a JSON list of labelled arm configurations: [{label, strategy, modelId? (default --model), models?: {actor?, evaluator?, reflector?: {modelId?, temperature?, maxOutputTokens?}}, memoryWindow?, maxTrials?, templates?}]; a templates value without whitespace is a library version (tv-… id, <template>@<label>), any other value template text")
    .option("--model <id>", "model id of the --arms arms and of every --arms-file arm that names none (every role)", modelIdArg, DEMO_MODEL_ID)
    .addOption(roleModelOption("actor"))
    .addOption(roleModelOption("evaluator"))
    .addOption(roleModelOption("reflector"))
    .option("--trials <n>", "trial budget of each run (1–50)", rangedInt(1, 50), 5)
    .option("--repeats <n>", "repetitions of every (task, arm), each its own run sampled afresh (1–20); rates then get bootstrap intervals", rangedInt(1, 20), 1)
    .option("--temperature <t>", "sampling temperature of every role of every arm that sets none (0–2; default 0, the paper's)", temperatureArg)
    .option("--seed <s>", "sampling seed of every arm that sets none; repetition r sends seed + r − 1 (providers that take a seed; the demo model varies with it)", rangedInt(0, 2_147_483_647))
    .option("--max-steps <n>", `Actor steps per trial before it is halted, for every arm that sets none (1–100; default per family: ${stepDefaultsHelp()})`, rangedInt(1, 100))
    .option("--concurrency <n>", "runs executed at once (default 4)", positiveInt)
    .option("--allow-unknown", "accept arms-file template texts with placeholders the family does not fill (e.g. {memroy}) or without a required one")
    .option("--name <name>", "a name for the experiment")
    .option("--json", "end with one summary line: {type: experiment-summary, …}")
    .option("--detach", "only record the experiment and queue its runs, print its id and return (a worker executes them; follow with `experiment show --id <id>`)")
    .option("--here", "shared mode: drive the runs in this process instead of handing them to the workers")
    // The experiment's budget, split evenly over its runs (an arms-file arm's own "budget" wins).
    .addOption(budgetOptions()[0])
    .addOption(budgetOptions()[1])
    .addOption(insightsOption())
    .action(async (options: RunOptions) => {
      const context = cliContext();
      try {
        const family = environmentEntry(options.env).family;
        if (options.maxSteps !== undefined && family.fixedStepsPerTrial !== undefined && options.maxSteps !== family.fixedStepsPerTrial) {
          process.stderr.write(`note: --max-steps is ignored for ${options.env} tasks: a trial's steps are fixed (trial 1: the internal tests, then the implementation; later trials: the implementation).\n`);
        }
        let taskSet = BUILTIN_TASK_SET;
        if (options.tasks !== BUILTIN_TASK_SET) {
          taskSet = (await context.service.importTaskSet(options.env, path.basename(options.tasks), readDatasetFile(options.tasks))).taskSet.id;
        }
        // --actor-model / --evaluator-model / --reflector-model apply to every arm that names no model for the role.
        // --max-steps, like --trials, is the default of every arm that sets its own none.
        // --insights goes to the expel arms; an expel arm without a store is refused before anything is recorded.
        const withStores = withInsightsStore(armsOf(options), options.insights);
        // A mistyped or empty store would make an ExpeL arm a second Reflexion arm: refuse it before anything is recorded.
        for (const arm of withStores) {
          const warning = await expelRunWarning(context, { strategy: arm.strategy, environment: family.id, store: arm.insights?.store });
          if (warning) throw new AppError("invalid-input", `Arm ${arm.label}: ${warning.replace(/^Warning: /, "").replace(/; the run starts as Reflexion\.$/, "")}. An ExpeL arm without insights would be a second Reflexion arm.`);
        }
        const arms = withStores.map((arm) =>
          withRoleFlags(
            {
              ...arm,
              maxStepsPerTrial: arm.maxStepsPerTrial ?? options.maxSteps,
              allowUnknown: arm.allowUnknown ?? options.allowUnknown,
              ...(arm.temperature ?? options.temperature) === undefined ? {} : { temperature: arm.temperature ?? options.temperature },
              ...(arm.seed ?? options.seed) === undefined ? {} : { seed: arm.seed ?? options.seed },
            },
            options,
          ),
        );
        const taskIds = options.taskIds?.split(",").map((id) => id.trim()).filter(Boolean) ?? [];
        const concurrency = options.concurrency ?? 4;
        const record = await context.experiments.start(
          {
            name: options.name ?? defaultName(arms, family.id, options.tasks),
            environment: family.id,
            taskSet,
            taskIds,
            arms,
            maxTrials: options.trials,
            repeats: options.repeats,
            concurrency,
            budget: budgetFromFlags(options) ?? null,
          },
          { start: false },
        );
        const here = !sharedMode(context) || (options.here ?? false);
        if (options.detach && options.here) throw new Error("--detach and --here exclude each other: --detach leaves the runs to the workers.");
        if (sharedMode(context) && !here) await handToWorkers(context, record.id);
        if (options.detach) {
          // stdout is the id alone, for scripts: `id=$(npm run -s cli -- experiment run --detach …)`.
          process.stdout.write(`${record.id}\n`);
          process.stderr.write(`Queued experiment ${record.id}: ${record.definition.taskIds.length} tasks × ${arms.length} arms. ${sharedMode(context) ? "The `cli worker` processes on this database execute its runs" : "A worker executes its runs: the web server, or `npm run cli -- worker`"}; see progress with \`npm run cli -- experiment show --id ${record.id}\`.\n`);
          return;
        }
        const where = here ? "" : " Its runs are handed to the workers (`cli worker`); this command follows them.";
        const repeats = options.repeats > 1 ? ` × ${options.repeats} repetitions` : "";
        const pin = record.definition.dataset ? ` Tasks pinned by content: ${shortHash(record.definition.dataset.hash)}.` : "";
        process.stderr.write(`Experiment ${record.id}: ${record.definition.taskIds.length} tasks × ${arms.length} arms${repeats}.${pin}${where} If it is stopped, continue with: npm run cli -- experiment resume --id ${record.id}\n`);
        const summary = await execute(context, record.id, concurrency, here);
        report(summary, options.json ?? false);
        process.exitCode = reportUnfinished(summary);
      } finally {
        await context.close();
      }
    });

  experiment
    .command("resume")
    .description("Continue an experiment where it stopped: missing runs are created, paused and interrupted ones resumed.")
    .requiredOption("--id <id>", "experiment id")
    .option("--concurrency <n>", "runs executed at once (default: the experiment's)", positiveInt)
    .option("--json", "end with one summary line")
    .option("--here", "shared mode: drive the runs in this process instead of handing them to the workers")
    .option("--tasks <file>", "the task file the experiment started on: refused, with what changed, when its tasks differ from the pinned ones")
    .addOption(budgetOptions()[0])
    .addOption(budgetOptions()[1])
    .action(async (options: { id: string; concurrency?: number; json?: boolean; here?: boolean; tasks?: string } & BudgetFlags) => {
      const context = cliContext();
      try {
        let taskSet: string | undefined;
        if (options.tasks !== undefined && options.tasks !== BUILTIN_TASK_SET) {
          const record = await context.experiments.get(options.id);
          taskSet = (await context.service.importTaskSet(record.definition.environment, path.basename(options.tasks), readDatasetFile(options.tasks))).taskSet.id;
        }
        // --budget-* continue budget-exhausted runs with their share of a new experiment budget.
        const record = await context.experiments.resume(options.id, { budget: budgetFromFlags(options), taskSet });
        const here = !sharedMode(context) || (options.here ?? false);
        if (!here) await handToWorkers(context, record.id);
        const summary = await execute(context, record.id, options.concurrency ?? record.definition.concurrency, here);
        report(summary, options.json ?? false);
        process.exitCode = reportUnfinished(summary);
      } finally {
        await context.close();
      }
    });

  experiment
    .command("show")
    .description("Print an experiment's results so far.")
    .requiredOption("--id <id>", "experiment id")
    .option("--json", "one summary line")
    .action(async (options: { id: string; json?: boolean }) => {
      const context = cliContext();
      try {
        report(await context.experiments.summary(options.id), options.json ?? false);
      } finally {
        await context.close();
      }
    });

  experiment
    .command("export")
    .description(
      "Export an experiment: csv (long format, one row per task × arm × repetition × trial, carried forward to the trial budget), json (summary, paired tests, per-run outcomes, the rows), events (every run's stored events, NDJSON), md or latex (arm × trial 1 / last trial / Δ with 95 % intervals, cost per solved task, paired tests), svg (the curves with 95 % bands, or --figure cost: success against cost per run).",
    )
    .requiredOption("--id <id>", "experiment id")
    .addOption(new Option("--format <format>", EXPERIMENT_EXPORT_FORMATS.join(", ")).choices([...EXPERIMENT_EXPORT_FORMATS]).default("csv"))
    .addOption(new Option("--figure <figure>", "svg: curve (success by trial with bands) or cost (success against cost per run)").choices([...EXPERIMENT_FIGURES]).default("curve"))
    .option("--out <file>", "write to this file instead of stdout")
    .action(async (options: { id: string; format: ExperimentExportFormat; figure: ExperimentFigure; out?: string }) => {
      const context = cliContext();
      try {
        if (options.format === "csv") {
          // Streamed, so a large experiment exports in bounded memory.
          await writeStream(await context.experimentExport.csvStream(options.id), options.out);
          if (options.out) process.stderr.write(`Wrote ${options.out}.\n`);
          return;
        }
        const { text } = await context.experimentExport.render(options.id, options.format, options.figure);
        if (options.out) {
          fs.writeFileSync(options.out, text);
          process.stderr.write(`Wrote ${options.out}.\n`);
        } else process.stdout.write(text);
      } finally {
        await context.close();
      }
    });

  registerCompareCommand(experiment);

  experiment
    .command("list")
    .description("List experiments, newest first: id, name, status, runs ended / all (--all: also those optimisations and template checks made).")
    .option("--all", "also list the experiments optimisations and template checks made for their evaluations")
    .action(async (options: { all?: boolean }) => {
      const context = cliContext();
      try {
        const items = await context.experiments.list(50, { withDerived: options.all === true });
        for (const item of items) process.stdout.write(`${item.id}\t${item.name}\t${item.status}\t${item.done}/${item.total}\n`);
        if (items.length === 0) process.stderr.write("No experiments yet. Start one with `npm run cli -- experiment run --tasks builtin --arms none,reflexion`.\n");
      } finally {
        await context.close();
      }
    });
}

