/**
 * Reflexion Playground command line: headless runs stored in the same database
 * as the web app (REFLEXION_DB_PATH, default .data/playground.sqlite), so they
 * appear in the UI. Usage: `npm run cli -- --help`.
 */
import fs from "node:fs";
import path from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { ZodError } from "zod";
import { strategySchema, type Strategy } from "@/lib/domain/config";
import { isAppError } from "@/lib/domain/errors";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { formatEventLine } from "@/lib/cli/format-event";
import { builtinCodeTasks, decodeBuffer, formatVerificationReport, readCodeTaskFile, summarizeVerification, verifyReferenceSolutions, type CodeLanguage } from "@/lib/environments/code";
import { runHouseholdConformance } from "@/lib/environments/household";
import { closeSharedSandboxPool, createSandboxPool } from "@/lib/sandbox";
import { availableEnvironments, environmentEntry } from "@/lib/environments/registry";
import type { ReplayMode } from "@/lib/engine/ports";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { BUILTIN_TASK_SET } from "@/lib/server/run-service";

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
};

/** Reads a dataset file, with messages a person can act on. */
function readDatasetFile(file: string): string {
  if (!fs.existsSync(file)) throw new Error(`No such file: ${file}. Pass a dataset file path or "builtin".`);
  if (fs.statSync(file).isDirectory()) throw new Error(`${file} is a folder; pass a dataset file (a HotpotQA .json, a HumanEval .jsonl.gz, …).`);
  // .gz files (e.g. HumanEval.jsonl.gz) are gunzipped; everything else is read as UTF-8.
  return decodeBuffer(fs.readFileSync(file));
}

/** A commander parser for an integer in [min, max], so a bad value names its flag. */
function rangedInt(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

function readTaskFile(env: string, file: string) {
  return environmentEntry(env).importTaskSet(readDatasetFile(file));
}

/** One line for any error: zod issues joined, app errors as they are. */
function describeError(error: unknown): string {
  if (error instanceof ZodError) {
    return error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; ");
  }
  return isAppError(error) || error instanceof Error ? error.message : String(error);
}

/**
 * Streams a branch's events (root by default) to stdout while it executes here;
 * resolves with the exit code. The closing line counts the live and cached model
 * calls made on this branch.
 */
async function follow(
  context: ServerContext,
  runId: string,
  branchId: string | null,
  json: boolean,
  start: () => Promise<void>,
): Promise<number> {
  const seen = new Set<number>();
  const run = await context.service.getRun(runId);
  const branch = await context.service.branchOf(run, branchId);
  const print = (events: readonly RunEvent[]) => {
    for (const event of events) {
      if (seen.has(event.seq)) continue;
      seen.add(event.seq);
      if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
      else {
        const line = formatEventLine(event);
        if (line) process.stdout.write(`${line}\n`);
      }
    }
  };
  print((await context.service.events(runId, 0, branch)).events);
  const unsubscribe = context.bus.subscribe(run.id, (events) => print(events.filter((event) => event.branchId === branch)));
  await start();
  await context.executor.settled(branch);
  unsubscribe();
  const { events } = await context.service.events(runId, 0, branch);
  print(events);
  const state = foldRun(events);
  const status = await context.service.status(run, { state, branchId: branch });
  const own = foldRun(events.filter((event) => event.branchId === branch)).totals;
  const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const demo = run.config.models.actor.modelId === "demo" ? " (demo model: a scripted stand-in, not an LLM)" : "";
  const where = branch === run.rootBranchId ? `Run ${run.id}` : `Run ${run.id}, branch ${branch}`;
  say(`${where}: ${status}${state.outcome ? ` (${state.outcome})` : ""}; tokens in/out ${state.totals.inputTokens}/${state.totals.outputTokens}.`);
  say(`model calls${demo}: ${own.liveCalls} live, ${own.cachedCalls} cached`);
  if (status === "paused") {
    const branchFlag = branch === run.rootBranchId ? "" : ` --branch ${branch}`;
    say(`Paused (${state.pause?.detail ?? ""}). Continue with: npm run cli -- resume --run ${run.id}${branchFlag}`);
    return state.pause?.reason === "model-error" ? 1 : 0;
  }
  return status === "ended" ? 0 : 1;
}

const program = new Command()
  .name("reflexion-playground")
  .description("Run and inspect Reflexion agents from the command line.")
  .showHelpAfterError()
  // Usage errors exit 2 (bad input); 1 is kept for "a provider failure paused the run".
  .exitOverride((error: CommanderError) => {
    process.exit(error.exitCode === 0 ? 0 : 2);
  });

program
  .command("tasks")
  .description("List the tasks of a task set, one per line: id, then the question.")
  .addOption(new Option("--env <family>", "task family: qa, household or code").default("qa"))
  .requiredOption("--tasks <file|builtin>", 'a dataset file (qa: HotpotQA JSON; code: HumanEval/MBPP/MultiPL-E/HumanEval-X JSONL, .gz too) or "builtin"')
  .action((options: { env: string; tasks: string }) => {
    const entry = environmentEntry(options.env);
    const { tasks, problems } =
      options.tasks === BUILTIN_TASK_SET ? { tasks: [...entry.builtinTasks], problems: [] } : readTaskFile(options.env, options.tasks);
    for (const task of tasks) {
      const summary = entry.family.summarize(entry.family.parseTask(task));
      process.stdout.write(`${summary.id}\t${summary.title}\n`);
    }
    for (const problem of problems) process.stderr.write(`warning: ${problem}\n`);
    if (tasks.length === 0) {
      const other = availableEnvironments().filter((id) => id !== options.env);
      process.stderr.write(`error: no ${options.env} task could be read from ${options.tasks}. Is it a dataset of another family? Try --env ${other.join(" or --env ")}.\n`);
      process.exitCode = 2;
    }
  });

program
  .command("run")
  .description("Start a run and follow it until it ends or pauses.")
  .addOption(new Option("--env <family>", "task family: qa, household or code").default("qa"))
  .requiredOption("--tasks <file|builtin>", 'a dataset file (qa: HotpotQA JSON; code: HumanEval/MBPP/MultiPL-E/HumanEval-X JSONL, .gz too) or "builtin"')
  .requiredOption("--task-id <id>", "the task to run (see the tasks command)")
  .addOption(new Option("--strategy <strategy>", "memory strategy").choices(strategySchema.options).default("reflexion"))
  .option("--model <id>", "model id: demo, openai:<m>, anthropic:<m>, compatible:<m>", "demo")
  .option("--trials <n>", "maximum number of trials (1–50)", rangedInt(1, 50), 5)
  .option("--memory-window <n>", "memory window Ω: reflections the Actor sees (default 3; code: 1, as in the paper)", positiveInt)
  .option("--max-steps <n>", "Actor steps per trial before it is halted (1–100; default per family: qa 6, household 30; code: always 2, tests then implementation)", positiveInt)
  .addOption(
    new Option("--break-after <points...>", "pause at these points (repeatable)").choices(["reflection", "observation", "evaluation"]),
  )
  .addOption(new Option("--break-before <roles...>", "pause before every model call of these roles").choices(["actor", "reflector"]))
  .option("--json", "print the run's events, one stored JSON envelope per line")
  .action(
    async (options: {
      env: string;
      tasks: string;
      taskId: string;
      strategy: Strategy;
      model: string;
      trials: number;
      memoryWindow?: number;
      maxSteps?: number;
      breakAfter?: Array<"reflection" | "observation" | "evaluation">;
      breakBefore?: Array<"actor" | "reflector">;
      json?: boolean;
    }) => {
      const family = environmentEntry(options.env).family;
      if (options.maxSteps !== undefined && family.fixedStepsPerTrial !== undefined && options.maxSteps !== family.fixedStepsPerTrial) {
        process.stderr.write(`note: --max-steps is ignored for ${options.env} tasks: a trial is always ${family.fixedStepsPerTrial} steps (tests, then the implementation).\n`);
      }
      const context = createServerContext();
      let taskSet = BUILTIN_TASK_SET;
      if (options.tasks !== BUILTIN_TASK_SET) {
        const content = readDatasetFile(options.tasks);
        const imported = await context.service.importTaskSet(options.env, path.basename(options.tasks), content, { requireTaskId: options.taskId });
        taskSet = imported.taskSet.id;
      }
      const run = await context.service.createRun(
        {
          environment: environmentEntry(options.env).family.id,
          taskSet,
          taskId: options.taskId,
          strategy: options.strategy,
          modelId: options.model,
          maxTrials: options.trials,
          memoryWindow: options.memoryWindow,
          maxStepsPerTrial: options.maxSteps,
          breakpoints: {
            afterReflection: options.breakAfter?.includes("reflection") ?? false,
            afterObservation: options.breakAfter?.includes("observation") ?? false,
            afterEvaluation: options.breakAfter?.includes("evaluation") ?? false,
            beforeModelCall: { actor: options.breakBefore?.includes("actor") ?? false, reflector: options.breakBefore?.includes("reflector") ?? false },
          },
        },
        { start: false },
      );
      if (!options.json) process.stdout.write(`Run ${run.id} — ${run.title}\n`);
      process.exitCode = await follow(context, run.id, null, options.json ?? false, async () => {
        await context.executor.start(run.id);
      });
      await context.store.close();
    },
  );

program
  .command("resume")
  .description("Resume a paused or interrupted run and follow it.")
  .requiredOption("--run <id>", "run id")
  .option("--branch <id>", "branch id (default: the run's root branch)")
  .option("--step", "perform one action, then pause again")
  .option("--json", "print events as JSON lines")
  .action(async (options: { run: string; branch?: string; step?: boolean; json?: boolean }) => {
    const context = createServerContext();
    const run = await context.service.getRun(options.run);
    const branch = await context.service.branchOf(run, options.branch);
    const status = await context.service.status(run, { branchId: branch });
    if (status !== "paused" && status !== "interrupted") {
      await context.store.close();
      throw new Error(`Run ${run.id} is ${status}; only a paused or interrupted run can be resumed.`);
    }
    process.exitCode = await follow(context, options.run, branch, options.json ?? false, async () => {
      await context.service.resume(options.run, branch, { step: options.step ?? false });
    });
    await context.store.close();
  });

program
  .command("cancel")
  .description("Cancel a paused or interrupted run (recorded as run-cancel and run-end).")
  .requiredOption("--run <id>", "run id")
  .option("--branch <id>", "branch id (default: the run's root branch)")
  .action(async (options: { run: string; branch?: string }) => {
    const context = createServerContext();
    await context.service.cancel(options.run, options.branch);
    process.stdout.write(`Run ${options.run} cancelled.\n`);
    await context.store.close();
  });

program
  .command("fork")
  .description("Fork a run at a checkpoint into a new branch, optionally editing a reflection, and run it.")
  .requiredOption("--run <id>", "run id")
  .requiredOption("--at <seq>", "the checkpoint's seq to fork at (1 = the run's start)", positiveInt)
  .option("--branch <id>", "the branch to fork from (default: the root branch)")
  .option("--edit-reflection <event-id>", "the reflection-end event whose text to replace on the new branch")
  .option("--text <text>", "the new reflection text (with --edit-reflection)")
  .addOption(new Option("--replay <mode>", "recorded: serve unchanged model calls from the cache; live: call the models again").choices(["recorded", "live"]).default("recorded"))
  .option("--json", "print the new branch's events as JSON lines")
  .action(async (options: { run: string; at: number; branch?: string; editReflection?: string; text?: string; replay: ReplayMode; json?: boolean }) => {
    if ((options.editReflection === undefined) !== (options.text === undefined)) {
      throw new Error("--edit-reflection and --text go together.");
    }
    const context = createServerContext();
    const edits = options.editReflection && options.text ? [{ kind: "reflection" as const, reflectionEventId: options.editReflection, text: options.text }] : [];
    const { run, branchId } = await context.service.fork(
      options.run,
      { atSeq: options.at, fromBranchId: options.branch, replay: options.replay, edits },
      { start: false },
    );
    if (!options.json) process.stdout.write(`Branch ${branchId} of run ${run.id}, forked at seq ${options.at} (${options.replay} replay)\n`);
    process.exitCode = await follow(context, run.id, branchId, options.json ?? false, async () => {
      await context.executor.start(run.id, branchId);
    });
    await context.store.close();
  });

program
  .command("replay")
  .description("Replay a run from its start on a new branch; recorded mode makes no model call for anything unchanged.")
  .requiredOption("--run <id>", "run id")
  .addOption(new Option("--mode <mode>", "recorded or live").choices(["recorded", "live"]).default("recorded"))
  .option("--json", "print the new branch's events as JSON lines")
  .action(async (options: { run: string; mode: ReplayMode; json?: boolean }) => {
    const context = createServerContext();
    const { run, branchId } = await context.service.fork(options.run, { atSeq: 1, replay: options.mode, reason: "replay" }, { start: false });
    if (!options.json) process.stdout.write(`Replaying run ${run.id} on branch ${branchId} (${options.mode})\n`);
    process.exitCode = await follow(context, run.id, branchId, options.json ?? false, async () => {
      await context.executor.start(run.id, branchId);
    });
    await context.store.close();
  });

program
  .command("verify-code")
  .description("Run each task's reference solution against its hidden tests in the sandbox; ends with `N passed, M failed`.")
  .requiredOption("--dataset <file|builtin>", 'HumanEval / MBPP / MultiPL-E / HumanEval-X file (.jsonl, .jsonl.gz or .json), or "builtin" (our 20 problems)')
  .addOption(new Option("--language <language>", "keep only tasks in this language").choices(["python", "javascript", "typescript"]))
  .option("--limit <n>", "verify at most this many tasks", positiveInt)
  .action(async (options: { dataset: string; language?: CodeLanguage; limit?: number }) => {
    const builtin = options.dataset === BUILTIN_TASK_SET;
    if (!builtin) readDatasetFile(options.dataset); // friendly errors for a missing file or a folder
    const { tasks, problems } = builtin
      ? { tasks: builtinCodeTasks.filter((task) => !options.language || task.language === options.language).slice(0, options.limit), problems: [] as string[] }
      : readCodeTaskFile(options.dataset, { language: options.language, limit: options.limit });
    for (const problem of problems) process.stderr.write(`warning: ${problem}\n`);
    if (tasks.length === 0) {
      const filtered = options.language ? ` in ${options.language} (drop --language to see the file's other tasks)` : "";
      throw new Error(`No task could be read from ${options.dataset}${filtered}.`);
    }
    const withoutReference = tasks.filter((task) => task.referenceSolution === null).length;
    if (withoutReference > 0) {
      process.stderr.write(`note: ${withoutReference} of ${tasks.length} tasks have no reference solution in this format (e.g. MultiPL-E); they are skipped.\n`);
    }
    const pool = createSandboxPool({ size: 2 });
    try {
      const results = await verifyReferenceSolutions(tasks, pool, {
        onResult: (_result, done, total) => {
          if (done % 20 === 0 || done === total) process.stderr.write(`verified ${done}/${total}\n`);
        },
      });
      const report = formatVerificationReport(results);
      process.stdout.write(report.endsWith("\n") ? report : `${report}\n`);
      process.exitCode = summarizeVerification(results).failed === 0 ? 0 : 1;
    } finally {
      await pool.close();
    }
  });

program
  .command("conformance-household")
  .description("Replay ALFWorld expert transcripts in the household world and compare every observation.")
  .requiredOption("--transcripts <file>", "a JSON object of transcripts (the shape of react-alfworld.json)")
  .action((options: { transcripts: string }) => {
    if (!fs.existsSync(options.transcripts)) throw new Error(`No such file: ${options.transcripts}.`);
    const report = runHouseholdConformance(fs.readFileSync(options.transcripts, "utf8"));
    for (const result of report.results) {
      if (result.ok) {
        process.stdout.write(`ok    ${result.name}\n`);
        continue;
      }
      process.stdout.write(`FAIL  ${result.name}\n`);
      if (result.error) process.stdout.write(`      ${result.error}\n`);
      const diff = result.firstDifference;
      if (diff) {
        process.stdout.write(`      step ${diff.step}: > ${diff.action}\n      expected: ${diff.expected}\n      actual:   ${diff.actual}\n`);
      }
    }
    process.stdout.write(`${report.passed} passed, ${report.failed} failed\n`);
    process.exitCode = report.failed === 0 ? 0 : 1;
  });

program
  .parseAsync()
  .catch((error: unknown) => {
    process.stderr.write(`error: ${describeError(error)}\n`);
    process.exitCode = 2;
  })
  // Code runs start the shared sandbox pool; its child processes would keep the CLI alive.
  .finally(() => closeSharedSandboxPool());
