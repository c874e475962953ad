import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { AppError } from "@/lib/domain/errors";
import { cliContext } from "./context";

/**
 * `cli export --run <id> | --experiment <id> --out <file>` and `cli import <file> [--json]`
 * (docs/decisions/0026, 0042): run bundles. Export streams one gzip'd JSON Lines file (format 2) (a run with all
 * its branches, or an experiment with all its runs, the response-cache entries their calls used,
 * template versions and a manifest with a content hash); import checks it and stores its runs
 * read-only ("Imported bundle"), so `cli replay --run <id>` reproduces them from the cache with
 * no model call and no key. A bad file is refused with what is wrong (exit 2) and nothing is stored.
 */
export function registerBundleCommands(program: Command): void {
  program
    .command("export")
    .description("Export a run (all branches) or an experiment (all runs) as one bundle file that imports on another machine.")
    .option("--run <id>", "the run to export")
    .option("--experiment <id>", "the experiment to export")
    .requiredOption("--out <file>", "where to write the bundle (e.g. run.reflexion.json.gz)")
    .option("--strip-names", "replace people's names in the bundle (who made each edit, annotation authors) with pseudonyms: person 1, person 2, …")
    .action(async (options: { run?: string; experiment?: string; out: string; stripNames?: boolean }) => {
      if (Boolean(options.run) === Boolean(options.experiment)) throw new AppError("invalid-input", "Give exactly one of --run <id> or --experiment <id>.");
      const context = cliContext();
      try {
        const names = options.stripNames ? "strip" : "keep";
        const target = path.resolve(options.out);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        // Written as it is read, one run at a time, into a side file that becomes the bundle only once it is complete.
        const partial = `${target}.partial`;
        let download;
        try {
          const out = fs.createWriteStream(partial);
          download = options.run ? await context.bundles.exportRunTo(out, options.run, { names }) : await context.bundles.exportExperimentTo(out, options.experiment ?? "", { names });
          fs.renameSync(partial, target);
        } catch (error) {
          fs.rmSync(partial, { force: true });
          throw error;
        }
        const { counts, contentSha256 } = download.manifest;
        process.stdout.write(
          `${options.out}: ${counts.runs} run${counts.runs === 1 ? "" : "s"}, ${counts.branches} branches, ${counts.events} events, ${counts.cacheEntries} cached responses, ${download.bytes} bytes\n  content SHA-256 ${contentSha256}\n`,
        );
      } finally {
        await context.close();
      }
    });

  program
    .command("import")
    .description("Import a bundle file: its runs appear read-only with their provenance; replay them recorded with zero model calls.")
    .argument("<file>", "a bundle written by `export` or the app's Export button")
    .option("--json", "print the result as one JSON line")
    .action(async (file: string, options: { json?: boolean }) => {
      const context = cliContext();
      try {
        // Read as a stream (format 2): memory stays flat whatever the bundle's size.
        const result = await context.bundles.importBundleFile(file);
        const { bundle } = result;
        if (options.json) {
          process.stdout.write(`${JSON.stringify({ type: "bundle-import", contentSha256: bundle.contentHash, created: result.created, alreadyHere: result.alreadyHere, runIds: bundle.runIds, experimentIds: bundle.experimentIds, skippedRunIds: result.skippedRunIds, notes: result.notes })}\n`);
          return;
        }
        const skipped = result.skippedRunIds.length;
        const what = result.alreadyHere ? "already in this database (kept as they are here)" : result.created ? (skipped > 0 ? `imported (${skipped} of them here already, kept)` : "imported") : "imported before";
        process.stdout.write(`${path.basename(file)}: ${bundle.runIds.length} run${bundle.runIds.length === 1 ? "" : "s"} ${what}\n`);
        for (const runId of bundle.runIds) process.stdout.write(`  run ${runId}\n`);
        for (const experimentId of bundle.experimentIds) process.stdout.write(`  experiment ${experimentId}\n`);
        for (const note of result.notes) process.stdout.write(`  ${note}\n`);
        process.stdout.write(`  shared view: /shared/${bundle.contentHash}\n  replay with zero model calls: npm run cli -- replay --run <id>\n`);
      } finally {
        await context.close();
      }
    });
}
