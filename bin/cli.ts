/**
 * Reflexion Playground command line: headless runs stored in the same database
 * as the web app (REFLEXION_DB_PATH, default .data/playground.sqlite), so they
 * appear in the UI. Usage: `npm run cli -- --help`.
 */
import fs from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { ZodError } from "zod";
import { isAppError } from "@/lib/domain/errors";
import { positiveInt, readDatasetFile } from "@/lib/cli/options";
import { registerExperimentCommands } from "@/lib/cli/experiment-commands";
import { registerImportCommands } from "@/lib/cli/import-commands";
import { registerRunCommands } from "@/lib/cli/run-commands";
import { registerTemplateCommands } from "@/lib/cli/template-commands";
import { registerWorkerCommands } from "@/lib/cli/worker-commands";
import { builtinCodeTasks, formatVerificationReport, readCodeTaskFile, summarizeVerification, verifyReferenceSolutions, type CodeLanguage } from "@/lib/environments/code";
import { runHouseholdConformance } from "@/lib/environments/household";
import { closeSharedSandboxPool, createSandboxPool } from "@/lib/sandbox";
import { availableEnvironments, environmentEntry } from "@/lib/environments/registry";
import { BUILTIN_TASK_SET } from "@/lib/server/run-service";

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

// Output into a closed pipe (`… | head`) ends the CLI quietly, as other Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
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

registerRunCommands(program);
registerWorkerCommands(program);
registerExperimentCommands(program);
registerTemplateCommands(program);
registerImportCommands(program);

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
