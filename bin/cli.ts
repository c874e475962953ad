/**
 * Reflexion Playground command line: headless runs stored in the same database
 * as the web app (REFLEXION_DB_PATH, default .data/playground.sqlite), so they
 * appear in the UI. Usage: `npm run cli -- --help`.
 *
 * The Evaluator checks (`verify-code`, `conformance-household`) load only what
 * they need (lib/cli/check-commands.ts); every other command loads the server,
 * database and model layers, imported on demand below.
 */
import { Command, CommanderError } from "commander";
import { ZodError } from "zod";
import { describePgError } from "@/lib/db/pg/describe-pg-error";
import { isAppError } from "@/lib/domain/errors";
import { escapeControlCharacters } from "@/lib/domain/ids";
import { registerCheckCommands } from "@/lib/cli/check-commands";
import { loadEnvFiles } from "@/lib/cli/env-files";
import { closeSharedSandboxPool } from "@/lib/sandbox";
import { describeIssues } from "@/lib/domain/describe-issues";
import { runAs } from "@/lib/actors/actor-context";
import { CLI_ACTOR } from "@/lib/auth/system-actors";

/** Commands that need none of the server, database or model modules. */
const LIGHT_COMMANDS = new Set(["verify-code", "conformance-household"]);

/** One line for any error: zod issues joined, app errors as they are, others with their cause (lib/db/pg/describe-pg-error.ts). */
function describeError(error: unknown): string {
  if (error instanceof ZodError) {
    return describeIssues(error, "input");
  }
  // Database errors (drizzle's "Failed query: … params: …") show their cause: "password authentication failed … (while: select from …)".
  return isAppError(error) ? error.message : describePgError(error);
}

// Output into a closed pipe (`… | head`) ends the CLI quietly, as other Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

if (process.env.REFLEXION_ENV_FILES !== "off") loadEnvFiles(process.cwd(), process.env);

const program = new Command()
  .name("reflexion-playground")
  .description("Run and inspect Reflexion agents from the command line.")
  // After a usage error: the error and one line on where the usage is, not the whole help text.
  .showHelpAfterError("(add --help for this command's usage)")
  // Usage errors exit 2 (bad input); 1 is kept for "a provider failure paused the run".
  .exitOverride((error: CommanderError) => {
    process.exit(error.exitCode === 0 ? 0 : 2);
  });

registerCheckCommands(program);

if (!LIGHT_COMMANDS.has(process.argv[2] ?? "")) {
  const { readDatasetFile } = await import("@/lib/cli/options");
  const { familyOption, tasksHelp } = await import("@/lib/cli/family-help");
  const { availableEnvironments, environmentEntry } = await import("@/lib/environments/registry");
  const { BUILTIN_TASK_SET } = await import("@/lib/server/run-service");
  const { registerRunCommands } = await import("@/lib/cli/run-commands");
  const { registerWorkerCommands } = await import("@/lib/cli/worker-commands");
  const { registerExperimentCommands } = await import("@/lib/cli/experiment-commands");
  const { registerTemplateCommands } = await import("@/lib/cli/template-commands");
  const { registerImportCommands } = await import("@/lib/cli/import-commands");
  const { registerBundleCommands } = await import("@/lib/cli/bundle-commands");
  const { registerOtlpCommands } = await import("@/lib/cli/otlp-commands");
  const { registerTraceImportCommands } = await import("@/lib/cli/trace-import-commands");
  const { registerProviderCommands } = await import("@/lib/cli/provider-commands");
  const { registerPriceCommands } = await import("@/lib/cli/price-commands");
  const { registerSpendingLimitCommands } = await import("@/lib/cli/spending-limit-commands");
  const { registerDbCommands } = await import("@/lib/cli/db-commands");
  const readTaskFile = (env: string, file: string) => environmentEntry(env).importTaskSet(readDatasetFile(file));

  program
    .command("tasks")
    .description("List the tasks of a task set, one per line: id, then the question.")
    .addOption(familyOption())
    .requiredOption("--tasks <file|builtin>", tasksHelp())
    .action((options: { env: string; tasks: string }) => {
      const entry = environmentEntry(options.env);
      const { tasks, problems } =
        options.tasks === BUILTIN_TASK_SET ? { tasks: [...entry.builtinTasks], problems: [] } : readTaskFile(options.env, options.tasks);
      for (const task of tasks) {
        const summary = entry.family.summarize(entry.family.parseTask(task));
        process.stdout.write(`${escapeControlCharacters(summary.id)}\t${escapeControlCharacters(summary.title)}\n`);
      }
      for (const problem of problems) process.stderr.write(`warning: ${escapeControlCharacters(problem)}\n`);
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
  registerBundleCommands(program);
  registerOtlpCommands(program);
  registerTraceImportCommands(program);
  registerProviderCommands(program);
  registerPriceCommands(program);
  registerSpendingLimitCommands(program);
  registerDbCommands(program);
  (await import("@/lib/cli/lesson-commands")).registerLessonCommands(program);
  (await import("@/lib/cli/job-commands")).registerJobCommands(program);
  (await import("@/lib/cli/task-set-commands")).registerTaskSetCommands(program);
  (await import("@/lib/cli/template-check-command")).registerTemplateCheckCommand(program);
  (await import("@/lib/cli/insight-commands")).registerInsightCommands(program);
  (await import("@/lib/cli/trace-reflection-command")).registerTraceReflectionCommand(program);
  (await import("@/lib/cli/memory-commands")).registerMemoryCommands(program);
  (await import("@/lib/cli/mcp-command")).registerMcpCommand(program);
  (await import("@/lib/cli/search-commands")).registerSearchCommands(program);
  (await import("@/lib/cli/review-commands")).registerReviewCommands(program);
  (await import("@/lib/cli/class-commands")).registerClassCommands(program);
  (await import("@/lib/cli/annotation-commands")).registerAnnotationCommands(program);
  (await import("@/lib/cli/user-commands")).registerUserCommands(program);
  (await import("@/lib/cli/token-commands")).registerTokenCommands(program);
  (await import("@/lib/cli/audit-commands")).registerAuditCommands(program);
}

// With sign-in off a command acts as `cli` (what it appends says so). Sign-in on (shared mode): every command but the
// light checks runs as its API token's person (lib/cli/cli-auth.ts), inside this default.
runAs(CLI_ACTOR, () => (LIGHT_COMMANDS.has(process.argv[2] ?? "") ? program.parseAsync() : import("@/lib/cli/cli-auth").then(({ parseAsActor }) => parseAsActor(program))))
  .catch((error: unknown) => {
    process.stderr.write(`error: ${describeError(error)}\n`);
    process.exitCode = 2;
  })
  // Code runs start the shared sandbox pool; its child processes would keep the CLI alive.
  .finally(() => closeSharedSandboxPool());
