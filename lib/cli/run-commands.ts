import { strategyBehaviour } from "@/lib/domain/strategies";
import path from "node:path";
import { Option, type Command } from "commander";
import { allowedActions } from "@/lib/domain/status";
import { MAX_MEMORY_WINDOW, MAX_REFINE_ROUNDS, strategySchema, type Strategy } from "@/lib/domain/config";
import { refineRoundsOf } from "@/lib/domain/self-refine";
import type { BranchId, RunId } from "@/lib/domain/ids";
import type { ReplayMode } from "@/lib/engine/ports";
import { environmentEntry } from "@/lib/environments/registry";
import type { ServerContext } from "@/lib/server/app-context";
import { cliContext } from "./context";
import { BUILTIN_TASK_SET } from "@/lib/server/run-service";
import { follow } from "./follow";
import { modelIdArg, roleModelOption, roleModelsFromFlags } from "./model-flags";
import { positiveInt, rangedInt, readDatasetFile } from "./options";
import { templateChoiceOf } from "./template-commands";
import { latsFlagsIgnoredNote, latsFromFlags, latsOptions, type LatsFlags } from "./lats-flags";
import { expelRunWarning, insightsOption } from "./insight-commands";
import { adaptiveAndMemoryOptions, budgetFromFlags, budgetOptions, runExtrasFromFlags, type BudgetFlags } from "./budget-flags";
import { missingStoreNote } from "@/lib/engine/warm-start";
import { DEMO_MODEL_ID } from "@/lib/domain/model-id";
import { familyOption, memoryWindowDefaultsHelp, stepDefaultsHelp, tasksHelp } from "./family-help";

/** Drives the branch in this process (when no other worker holds it) and follows it to its end or pause; resolves with the exit code. */
function driveAndFollow(context: ServerContext, runId: RunId, branchId: BranchId, json: boolean | undefined): Promise<number> {
  return follow(context, runId, branchId, {
    json: json ?? false,
    start: async () => {
      await context.workers.drive(runId, branchId);
    },
  });
}

interface RunOptions extends BudgetFlags, LatsFlags {
  /** ExpeL: the insights store (lib/cli/insight-commands.ts). */
  insights?: string;
  env: string;
  tasks: string;
  taskId: string;
  strategy: Strategy;
  model: string;
  trials: number;
  memoryWindow?: number;
  maxSteps?: number;
  refineRounds?: number;
  breakAfter?: Array<"reflection" | "observation" | "evaluation">;
  breakBefore?: Array<"actor" | "reflector">;
  json?: boolean;
  detach?: boolean;
  template?: string[];
  summarizeMemory?: number;
  /** Per-role models (lib/cli/model-flags.ts). */
  actorModel?: string;
  evaluatorModel?: string;
  reflectorModel?: string;
}

/**
 * Registers `run`, `resume`, `pause`, `cancel`, `fork` and `replay`: the
 * commands that create or control one run. `run`, `resume`, `fork` and `replay` drive the branch
 * in this process and follow it — in shared mode too, where this process drives only that branch
 * (it never works other runs' jobs) and exits when it ends; should the CLI die, the branch's
 * lease lapses and the workers take it over. `run --detach` only enqueues the run (a worker — the
 * web server's pool or `cli worker`; in shared mode its pg-boss job) and prints its id.
 */
export function registerRunCommands(program: Command): void {
  program
    .command("run")
    .description("Start a run and follow it until it ends or pauses (with --detach: enqueue it for a worker and print its id).")
    .addOption(familyOption())
    .requiredOption("--tasks <file|builtin>", tasksHelp())
    .requiredOption("--task-id <id>", "the task to run (see the tasks command)")
    .addOption(new Option("--strategy <strategy>", "memory strategy").choices(strategySchema.options).default("reflexion"))
    .option("--model <id>", "model id of every role: demo, openai:<m>, anthropic:<m>, google:<m>, ollama:<m>, compatible:<m>", modelIdArg, DEMO_MODEL_ID)
    .option("--trials <n>", "maximum number of trials (1–50)", rangedInt(1, 50), 5)
    .option("--memory-window <n>", `memory window Ω: reflections the Actor sees, 1–${MAX_MEMORY_WINDOW} (default 3${memoryWindowDefaultsHelp() ? `; ${memoryWindowDefaultsHelp()}` : ""})`, rangedInt(1, MAX_MEMORY_WINDOW))
    .option("--max-steps <n>", `Actor steps per trial before it is halted (1–100; default per family: ${stepDefaultsHelp()})`, positiveInt)
    .option("--refine-rounds <k>", `Self-Refine: feedback → refine rounds per trial, 1–${MAX_REFINE_ROUNDS} (default 3; only methods that refine read it)`, rangedInt(1, MAX_REFINE_ROUNDS))
    .addOption(new Option("--break-after <points...>", "pause at these points (repeatable)").choices(["reflection", "observation", "evaluation"]))
    .addOption(new Option("--break-before <roles...>", "pause before every model call of these roles").choices(["actor", "reflector"]))
    .option("--template <role=version...>", "a template library version per role (repeatable): actor=<ref> or reflector=<ref>, ref a version id (tv-…), <template>@<label>, <template>@v<n> or a template id (its newest); see `templates list`")
    .option("--summarize-memory <tokens>", "summarise the reflections with the Self-Reflection model when they exceed this many tokens (instead of the memory window)", positiveInt)
    .option("--json", "print the run's events, one stored JSON envelope per line")
    .option("--detach", "only enqueue the run (status queued) and print its id; a worker executes it")
    .addOption(roleModelOption("actor"))
    .addOption(roleModelOption("evaluator"))
    .addOption(roleModelOption("reflector"))
    .addOption(budgetOptions()[0])
    .addOption(budgetOptions()[1])
    .addOption(adaptiveAndMemoryOptions()[0])
    .addOption(adaptiveAndMemoryOptions()[1])
    .addOption(adaptiveAndMemoryOptions()[2])
    .addOption(adaptiveAndMemoryOptions()[3])
    .addOption(adaptiveAndMemoryOptions()[4])
    .addOption(latsOptions()[0])
    .addOption(latsOptions()[1])
    .addOption(latsOptions()[2])
    .addOption(insightsOption())
    .action(async (options: RunOptions) => {
      const family = environmentEntry(options.env).family;
      const treeSearch = strategyBehaviour(options.strategy).treeSearch;
      const ignoredLats = latsFlagsIgnoredNote(options, treeSearch);
      if (ignoredLats) process.stderr.write(`${ignoredLats}\n`);
      if (options.maxSteps !== undefined && family.fixedStepsPerTrial !== undefined && options.maxSteps !== family.fixedStepsPerTrial) {
        process.stderr.write(`note: --max-steps is ignored for ${options.env} tasks: a trial's steps are fixed (trial 1: the internal tests, asked again when none is runnable, then the implementation; later trials: the implementation).\n`);
      }
      if (options.refineRounds !== undefined && refineRoundsOf({ strategy: options.strategy }) === 0) {
        process.stderr.write(`note: --refine-rounds is ignored: the ${options.strategy} strategy does not refine its answers (use --strategy self-refine).\n`);
      }
      const context = cliContext();
      try {
        let taskSet = BUILTIN_TASK_SET;
        if (options.tasks !== BUILTIN_TASK_SET) {
          const content = readDatasetFile(options.tasks);
          const imported = await context.service.importTaskSet(options.env, path.basename(options.tasks), content, { requireTaskId: options.taskId });
          taskSet = imported.taskSet.id;
        }
        // A misspelt --warm-start store would carry in nothing without a word (the run records the same note).
        const warmStore = runExtrasFromFlags(options).warmStart?.store;
        const missing = warmStore ? await missingStoreNote(warmStore, async () => (await context.memoryStores.list()).map((store) => store.name)) : null;
        if (missing) process.stderr.write(`Warning: ${missing}; the run starts with no reflections carried in.\n`);
        const noInsights = await expelRunWarning(context, { strategy: options.strategy, environment: family.id, store: options.insights });
        if (noInsights) process.stderr.write(`${noInsights}\n`);
        const run = await context.service.createRun(
          {
            environment: family.id,
            taskSet,
            taskId: options.taskId,
            strategy: options.strategy,
            modelId: options.model,
            models: roleModelsFromFlags(options),
            maxTrials: options.trials,
            memoryWindow: options.memoryWindow,
            maxStepsPerTrial: options.maxSteps,
            refineRounds: options.refineRounds,
            templateVersions: templateChoiceOf(options.template),
            memoryManagement: options.summarizeMemory === undefined ? undefined : { kind: "summarize", tokenBudget: options.summarizeMemory },
            // --budget-*, --adaptive-*, --task-cost-ceiling, --warm-start, --write-memory.
            ...runExtrasFromFlags(options),
            // --lats-children, --lats-exploration; --lats-iterations is the trial budget.
            ...(treeSearch ? latsFromFlags(options) : {}),
            // --insights: the ExpeL store the run reads once before trial 1.
            ...(options.insights ? { insights: { store: options.insights } } : {}),
            breakpoints: {
              afterReflection: options.breakAfter?.includes("reflection") ?? false,
              afterObservation: options.breakAfter?.includes("observation") ?? false,
              afterEvaluation: options.breakAfter?.includes("evaluation") ?? false,
              beforeModelCall: { actor: options.breakBefore?.includes("actor") ?? false, reflector: options.breakBefore?.includes("reflector") ?? false },
            },
          },
          { start: false },
        );
        if (options.detach) {
          // Shared mode: the run's job now, so an idle `cli worker` takes it at once (NOTIFY) rather than at the next reconcile.
          if (context.jobs.kind === "pg-boss") await context.jobs.enqueue([{ runId: run.id, branchId: run.rootBranchId, priority: "interactive" }]);
          // stdout is the id alone, for scripts: `id=$(npm run -s cli -- run --detach …)`.
          process.stdout.write(`${run.id}\n`);
          const who = context.jobs.kind === "pg-boss" ? "a `npm run cli -- worker` process (or an app server) on this database" : "the web server, or `npm run cli -- worker`";
          process.stderr.write(`Queued run ${run.id} — ${run.title}. A worker executes it: ${who}.\n`);
          return;
        }
        if (!options.json) process.stdout.write(`Run ${run.id} — ${run.title}\n`);
        process.exitCode = await driveAndFollow(context, run.id, run.rootBranchId, options.json);
      } finally {
        await context.close();
      }
    });

  program
    .command("resume")
    .description("Resume a paused or interrupted run and follow it (this process drives it).")
    .requiredOption("--run <id>", "run id")
    .option("--branch <id>", "branch id (default: the run's root branch)")
    .option("--step", "perform one action, then pause again")
    .option("--json", "print events as JSON lines")
    .addOption(budgetOptions()[0])
    .addOption(budgetOptions()[1])
    .action(async (options: { run: string; branch?: string; step?: boolean; json?: boolean } & BudgetFlags) => {
      const context = cliContext();
      try {
        const run = await context.service.getRun(options.run);
        const branch = await context.service.branchOf(run, options.branch);
        const status = await context.service.status(run, { branchId: branch });
        if (!(options.step ? allowedActions(status).step : allowedActions(status).resume)) {
          // Checked before anything is printed, so a refused resume writes nothing to stdout.
          throw new Error(`Run ${run.id} is ${status}; only a paused or interrupted run can be resumed.`);
        }
        process.exitCode = await follow(context, options.run, branch, {
          json: options.json ?? false,
          start: async () => {
            await context.service.resume(options.run, branch, { step: options.step ?? false, budget: budgetFromFlags(options) });
            await context.workers.drive(run.id, branch);
          },
        });
      } finally {
        await context.close();
      }
    });

  program
    .command("pause")
    .description("Ask a run to pause at its next step boundary, whichever process drives it; returns at once.")
    .requiredOption("--run <id>", "run id")
    .option("--branch <id>", "branch id (default: the run's root branch)")
    .action(async (options: { run: string; branch?: string }) => {
      const context = cliContext();
      try {
        const status = await context.service.pause(options.run, options.branch);
        const what =
          status === "pausing" ? "pausing (its worker pauses it at the next step boundary)" : status === "cancelling" ? "cancelling already" : status;
        process.stdout.write(`Run ${options.run}: ${what}.\n`);
      } finally {
        await context.close();
      }
    });

  program
    .command("cancel")
    .description("Cancel a run, whichever process drives it (the call in flight is aborted); recorded as run-cancel and run-end.")
    .requiredOption("--run <id>", "run id")
    .option("--branch <id>", "branch id (default: the run's root branch)")
    .action(async (options: { run: string; branch?: string }) => {
      const context = cliContext();
      try {
        const status = await context.service.cancel(options.run, options.branch);
        process.stdout.write(status === "ended" ? `Run ${options.run} cancelled.\n` : `Run ${options.run}: cancelling (its worker aborts the call in flight).\n`);
      } finally {
        await context.close();
      }
    });

  program
    .command("fork")
    .description("Fork a run at a checkpoint into a new branch, optionally editing a reflection, and run it.")
    .requiredOption("--run <id>", "run id")
    .requiredOption("--at <seq>", "the checkpoint's seq to fork at (1 = the run's start)", positiveInt)
    .option("--branch <id>", "the branch to fork from (default: the root branch)")
    .option("--edit-reflection <event-id>", "the reflection-end event whose text to replace on the new branch")
    .option("--text <text>", "the new reflection text (with --edit-reflection)")
    .option("--tree-node <id>", "a LATS run: search only the subtree of this search-tree node on the new branch (ids as `cli events` prints them: t2.e1, t3.s4)")
    .addOption(new Option("--replay <mode>", "recorded: serve unchanged model calls from the cache; live: call the models again").choices(["recorded", "live"]).default("recorded"))
    .option("--json", "print the new branch's events as JSON lines")
    .action(async (options: { run: string; at: number; branch?: string; editReflection?: string; text?: string; treeNode?: string; replay: ReplayMode; json?: boolean }) => {
      if ((options.editReflection === undefined) !== (options.text === undefined)) {
        throw new Error("--edit-reflection and --text go together.");
      }
      const context = cliContext();
      try {
        const edits = [
          ...(options.editReflection && options.text ? [{ kind: "reflection" as const, reflectionEventId: options.editReflection, text: options.text }] : []),
          ...(options.treeNode ? [{ kind: "tree-focus" as const, node: options.treeNode }] : []),
        ];
        const { run, branchId } = await context.service.fork(options.run, { atSeq: options.at, fromBranchId: options.branch, replay: options.replay, edits }, { start: false });
        if (!options.json) process.stdout.write(`Branch ${branchId} of run ${run.id}, forked at seq ${options.at} (${options.replay} replay)\n`);
        process.exitCode = await driveAndFollow(context, run.id, branchId, options.json);
      } finally {
        await context.close();
      }
    });

  program
    .command("replay")
    .description("Replay a run from its start on a new branch; recorded mode makes no model call for anything unchanged.")
    .requiredOption("--run <id>", "run id")
    .addOption(new Option("--mode <mode>", "recorded or live").choices(["recorded", "live"]).default("recorded"))
    .option("--json", "print the new branch's events as JSON lines")
    .action(async (options: { run: string; mode: ReplayMode; json?: boolean }) => {
      const context = cliContext();
      try {
        const { run, branchId } = await context.service.fork(options.run, { atSeq: 1, replay: options.mode, reason: "replay" }, { start: false });
        if (!options.json) process.stdout.write(`Replaying run ${run.id} on branch ${branchId} (${options.mode})\n`);
        process.exitCode = await driveAndFollow(context, run.id, branchId, options.json);
      } finally {
        await context.close();
      }
    });
}
