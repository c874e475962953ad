import fs from "node:fs";
import { Option, type Command } from "commander";
import { builtinCodeTasks, formatVerificationReport, readCodeTaskFile, summarizeVerification, verifyReferenceSolutions, type CodeLanguage } from "@/lib/environments/code";
import { runHouseholdConformance } from "@/lib/environments/household";
import { createSandboxPool } from "@/lib/sandbox";
import { positiveInt, readDatasetFile } from "./options";

/**
 * The Evaluator checks of the CLI: `verify-code` (reference solutions against
 * their hidden tests in the sandbox) and `conformance-household` (ALFWorld
 * expert transcripts replayed in the household world). They import only the
 * environments and the sandbox — not the server, the database or the model
 * layer — so `bin/cli.ts` loads nothing else for them (whole-process time of
 * `verify-code` is a benchmark figure, `npm run bench:code`).
 */

/** The dataset name meaning "the family's built-in tasks" (as `BUILTIN_TASK_SET` in lib/server/run-service.ts). */
const BUILTIN = "builtin";

/** Adds `verify-code` and `conformance-household` to `program`. */
export function registerCheckCommands(program: Command): void {
  program
    .command("verify-code")
    .description("Run each task's reference solution against its hidden tests in the sandbox; ends with `N passed, M failed`.")
    .requiredOption("--dataset <file|builtin>", 'HumanEval / MBPP / MultiPL-E / HumanEval-X file (.jsonl, .jsonl.gz or .json), or "builtin" (our 20 problems)')
    .addOption(new Option("--language <language>", "keep only tasks in this language").choices(["python", "javascript", "typescript"]))
    .option("--limit <n>", "verify at most this many tasks", positiveInt)
    .action(async (options: { dataset: string; language?: CodeLanguage; limit?: number }) => {
      const builtin = options.dataset === BUILTIN;
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
}
