/**
 * Reflexion Playground command line: headless runs stored in the same database
 * as the web app (REFLEXION_DB_PATH, default .data/playground.sqlite), so they
 * appear in the UI. Usage: `npm run cli -- --help`.
 */
import fs from "node:fs";
import path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { strategySchema } from "@/lib/domain/config";
import { isAppError } from "@/lib/domain/errors";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { formatEventLine } from "@/lib/cli/format-event";
import { runHouseholdConformance } from "@/lib/environments/household";
import { environmentEntry } from "@/lib/environments/registry";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { BUILTIN_TASK_SET } from "@/lib/server/run-service";

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
};

function readTaskFile(env: string, file: string) {
  const entry = environmentEntry(env);
  if (!fs.existsSync(file)) throw new Error(`No such file: ${file}. Pass a dataset file path or "builtin".`);
  return entry.importTaskSet(fs.readFileSync(file, "utf8"));
}

/** Streams a run's events to stdout while it executes here; resolves with the final status. */
async function follow(context: ServerContext, runId: string, json: boolean, start: () => Promise<void>): Promise<number> {
  const seen = new Set<number>();
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
  const { events: existing } = await context.service.events(runId);
  print(existing);
  const unsubscribe = context.bus.subscribe(runId, print);
  await start();
  await context.executor.settled(existing[0]?.runId ?? (await context.service.getRun(runId)).id);
  unsubscribe();
  const { run, events } = await context.service.events(runId);
  print(events);
  const state = foldRun(events);
  const status = await context.service.status(run, state);
  const totals = state.totals;
  const say = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  say(`Run ${run.id}: ${status}${state.outcome ? ` (${state.outcome})` : ""}; model calls: ${totals.liveCalls} live, ${totals.cachedCalls} cached; tokens in/out ${totals.inputTokens}/${totals.outputTokens}.`);
  if (status === "paused") {
    say(`Paused (${state.pause?.detail ?? ""}). Continue with: npm run cli -- resume --run ${run.id}`);
    return state.pause?.reason === "model-error" ? 1 : 0;
  }
  return status === "ended" ? 0 : 1;
}

const program = new Command()
  .name("reflexion-playground")
  .description("Run and inspect Reflexion agents from the command line.")
  .showHelpAfterError();

program
  .command("tasks")
  .description("List the tasks of a task set, one per line: id, then the question.")
  .addOption(new Option("--env <family>", "task family").default("qa"))
  .requiredOption("--tasks <file|builtin>", 'a dataset file (HotpotQA JSON) or "builtin"')
  .action((options: { env: string; tasks: string }) => {
    const entry = environmentEntry(options.env);
    const { tasks, problems } =
      options.tasks === BUILTIN_TASK_SET ? { tasks: [...entry.builtinTasks], problems: [] } : readTaskFile(options.env, options.tasks);
    for (const task of tasks) {
      const summary = entry.family.summarize(entry.family.parseTask(task));
      process.stdout.write(`${summary.id}\t${summary.title}\n`);
    }
    for (const problem of problems) process.stderr.write(`warning: ${problem}\n`);
  });

program
  .command("run")
  .description("Start a run and follow it until it ends or pauses.")
  .addOption(new Option("--env <family>", "task family").default("qa"))
  .requiredOption("--tasks <file|builtin>", 'a dataset file (HotpotQA JSON) or "builtin"')
  .requiredOption("--task-id <id>", "the task to run (see the tasks command)")
  .addOption(new Option("--strategy <strategy>", "memory strategy").choices(strategySchema.options).default("reflexion"))
  .option("--model <id>", "model id: demo, openai:<m>, anthropic:<m>, compatible:<m>", "demo")
  .option("--trials <n>", "maximum number of trials", positiveInt, 5)
  .option("--memory-window <n>", "memory window Ω (reflections the Actor sees)", positiveInt)
  .option("--max-steps <n>", "Actor steps per trial before it is halted", positiveInt)
  .addOption(new Option("--break-after <point>", "pause at this point").choices(["reflection"]))
  .option("--json", "print the run's events, one stored JSON envelope per line")
  .action(
    async (options: {
      env: string;
      tasks: string;
      taskId: string;
      strategy: "none" | "reflexion";
      model: string;
      trials: number;
      memoryWindow?: number;
      maxSteps?: number;
      breakAfter?: "reflection";
      json?: boolean;
    }) => {
      const context = createServerContext();
      let taskSet = BUILTIN_TASK_SET;
      if (options.tasks !== BUILTIN_TASK_SET) {
        const imported = await context.service.importTaskSet(options.env, path.basename(options.tasks), fs.readFileSync(options.tasks, "utf8"));
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
          breakpoints: { afterReflection: options.breakAfter === "reflection" },
        },
        { start: false },
      );
      if (!options.json) process.stdout.write(`Run ${run.id} — ${run.title}\n`);
      process.exitCode = await follow(context, run.id, options.json ?? false, async () => {
        await context.executor.start(run.id);
      });
      await context.store.close();
    },
  );

program
  .command("resume")
  .description("Resume a paused or interrupted run and follow it.")
  .requiredOption("--run <id>", "run id")
  .option("--json", "print events as JSON lines")
  .action(async (options: { run: string; json?: boolean }) => {
    const context = createServerContext();
    process.exitCode = await follow(context, options.run, options.json ?? false, async () => {
      await context.service.resume(options.run);
    });
    await context.store.close();
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

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`error: ${isAppError(error) || error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
