import path from "node:path";
import type { Command } from "commander";
import { follow } from "./follow";
import { positiveInt } from "./options";
import { AppError } from "@/lib/domain/errors";
import { experimentSummaryLine } from "@/lib/domain/experiment";
import { asRunId } from "@/lib/domain/ids";
import { resolveModelId } from "@/lib/llm/provider-registry";
import type { ImportResult } from "@/lib/domain/paper-import";
import type { ServerContext } from "@/lib/server/app-context";
import { cliContext } from "./context";

/**
 * `cli import-logs <file-or-folder> [--json]`: imports the authors'
 * published logs (docs/decisions/0015). A folder imports every log found inside
 * (an ALFWorld run folder is one log; the test-accuracy log is skipped with
 * its reason). Per import it prints the label, runs, per-trial figures and
 * warnings; `--json` prints one line per import in the `experiment-summary`
 * shape of `cli experiment run --json`, plus `source`, `alreadyImported` and
 * `warnings`.
 *
 * `cli continue-import --run <id> --at <seq> --model <id> [--json]` forks an
 * imported HotpotQA run at a checkpoint with the Actor and Self-Reflection
 * models replaced (the logged text-davinci-003 is retired) and drives the fork
 * here, printing it as `cli fork` does.
 */

/** The `--json` line of one import: the experiment-summary line plus what the import found. */
export async function importSummaryLine(context: ServerContext, result: ImportResult): Promise<string> {
  const summary = JSON.parse(experimentSummaryLine(await context.experiments.summary(result.experimentId))) as Record<string, unknown>;
  return JSON.stringify({ ...summary, source: result.source, alreadyImported: result.alreadyImported, warnings: result.warnings });
}

/** The human-readable lines of one import. */
export function formatImport(result: ImportResult): string {
  const figures = result.successByTrial.join(" → ");
  const head = `${result.label}: ${result.runs} runs, ${result.trials} trial${result.trials === 1 ? "" : "s"}, solved by trial ${figures}${result.alreadyImported ? " (imported before)" : ""}`;
  const lines = [head, `  experiment ${result.experimentId} — ${result.source}`, ...result.warnings.map((warning) => `  warning: ${warning}`)];
  return `${lines.join("\n")}\n`;
}

/** Registers `import-logs`. */
export function registerImportCommands(program: Command): void {
  program
    .command("import-logs")
    .description("Import the Reflexion authors' published run logs (HotpotQA, ALFWorld, programming) as read-only runs, one experiment per log.")
    .argument("<file-or-folder>", "a log file, an ALFWorld run folder, or a folder to search (e.g. ../shared/data/reflexion)")
    .option("--json", "print one experiment-summary JSON line per import (with its warnings)")
    .action(async (target: string, options: { json?: boolean }) => {
      const context = cliContext();
      try {
        const { imports, skipped } = await context.imports.importPath(target);
        for (const result of imports) {
          process.stdout.write(options.json ? `${await importSummaryLine(context, result)}\n` : formatImport(result));
        }
        for (const skip of skipped) process.stderr.write(`skipped: ${skip.path}: ${skip.reason}\n`);
        if (imports.length === 0) {
          process.stderr.write(
            `error: no log this importer reads was found in the folder ${path.resolve(target)}${skipped.length > 0 ? " (apart from the skipped ones above)" : ""}. ` +
              "Inside a folder, logs are recognised by the authors' layout: hotpotqa_runs/root/<variant>/100_questions_N_trials.txt, " +
              "alfworld_runs/root/{reflexion_run_logs,base_run_logs}/env_results_trial_N.json, programming_runs/root/<run>/*.jsonl. " +
              "Give a single log file to have it recognised by its content instead.\n",
          );
          process.exitCode = 2;
        }
      } finally {
        await context.close();
      }
    });

  program
    .command("continue-import")
    .description("Fork an imported HotpotQA run at a checkpoint and continue it live with another model (e.g. demo).")
    .requiredOption("--run <id>", "an imported run's id")
    .requiredOption("--at <seq>", "the checkpoint's seq to fork at (1 = the run's start)", positiveInt)
    .requiredOption("--model <id>", "the Actor's and Self-Reflection's model for the fork, e.g. demo or openai:gpt-4o-mini")
    .option("--json", "print the new branch's events as JSON lines")
    .action(async (options: { run: string; at: number; model: string; json?: boolean }) => {
      // Fail fast, before any branch is recorded, as `cli run` does: a malformed id or an unconfigured provider (exit 2).
      resolveModelId(options.model);
      const context = cliContext();
      try {
        const imported = await context.store.getRun(asRunId(options.run));
        if (imported) {
          const events = await context.store.list(imported.id, imported.rootBranchId);
          const checkpoints = events.filter((event) => event.type === "checkpoint");
          const last = checkpoints.at(-1);
          if (last && options.at === last.seq && events.some((event) => event.type === "run-end")) {
            throw new AppError(
              "invalid-input",
              `Checkpoint ${options.at} is the run's last: nothing to continue after the last trial. Pick an earlier checkpoint (${checkpoints.slice(0, -1).map((event) => event.seq).join(", ") || "none"}).`,
            );
          }
        }
        const edits = (["actor", "reflector"] as const).map((role) => ({ kind: "model" as const, role, modelId: options.model }));
        const { run, branchId } = await context.service.fork(options.run, { atSeq: options.at, replay: "live", edits }, { start: false });
        if (!options.json) process.stdout.write(`Branch ${branchId} of run ${run.id}, forked at seq ${options.at}, continuing with ${options.model}\n`);
        process.exitCode = await follow(context, run.id, branchId, { json: options.json ?? false, start: async () => {
            await context.workers.drive(run.id, branchId);
          },
        });
      } finally {
        await context.close();
      }
    });
}
