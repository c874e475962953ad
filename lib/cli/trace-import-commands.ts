import fs from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import type { TraceImportResult } from "@/lib/domain/trace-import";
import { isAppError } from "@/lib/domain/errors";
import { isTraceFormatError, TRACE_FORMAT_CHOICES, type TraceFormatChoice } from "@/lib/importers/external/formats";
import { gunzipBounded, isGzip } from "@/lib/io/gunzip-bounded";
import { cliContext } from "./context";

/**
 * `cli import-traces <file...> [--format f] [--json]`: imports outside agents' trace files
 * (lib/server/trace-import-service.ts), one experiment per file with one read-only run per trace.
 * Prints per file the traces imported, the experiment and every per-record problem; `--json`
 * prints one `TraceImportResult` line per file (lib/domain/trace-import.ts). A file of which
 * nothing could be read is reported and the others still import; the exit code is then 2.
 */

/** The human-readable lines of one file's import. */
export function formatTraceImport(result: TraceImportResult): string {
  const head = `${result.file}: ${result.traces} trace${result.traces === 1 ? "" : "s"} (${result.format}) → experiment ${result.experimentId}${result.reused ? " (imported before: nothing new stored)" : ""}`;
  const problems = result.problems.map((problem) => `  problem: ${problem.where}: ${problem.message}`);
  return `${[head, ...(result.problems.length > 0 ? [`  ${result.problems.length} problem${result.problems.length === 1 ? "" : "s"}:`] : []), ...problems].join("\n")}\n`;
}

/**
 * The error line of a file that could not be imported. The service's messages name the file
 * already, so only other errors (a file that cannot be read: ENOENT …) get its path in front; a
 * message that asks to name the format gets the flag that does it.
 */
export function formatTraceImportError(file: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const hint = isTraceFormatError(error) ? ` Use --format ${TRACE_FORMAT_CHOICES.filter((choice) => choice !== "auto").join("|")}.` : "";
  return `error: ${isAppError(error) ? message : `${file}: ${message}`}${hint}\n`;
}

/** Registers `import-traces`. */
export function registerTraceImportCommands(program: Command): void {
  program
    .command("import-traces")
    .description("Import outside agents' traces (OTLP JSON / JSON lines with OpenInference or gen_ai.* attributes; Inspect AI, LangSmith, Langfuse exports) as read-only runs, one experiment per file.")
    .argument("<file...>", "trace files (.json, .jsonl, optionally .gz)")
    .addOption(new Option("--format <format>", "the files' format (auto: recognised by content)").choices([...TRACE_FORMAT_CHOICES]).default("auto"))
    .option("--json", "print one JSON line per file: { file, experimentId, runIds, format, traces, problems, reused }")
    .action(async (files: string[], options: { format: TraceFormatChoice; json?: boolean }) => {
      const context = cliContext();
      try {
        for (const file of files) {
          try {
            let bytes: Uint8Array = fs.readFileSync(file);
            let name = path.basename(file);
            if (isGzip(bytes)) {
              bytes = new Uint8Array(await gunzipBounded(bytes, { what: `trace file ${name}` }));
              name = name.replace(/\.gz$/i, "");
            }
            const result = await context.traceImports.importFile({ name, bytes, format: options.format });
            process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : formatTraceImport(result));
          } catch (error) {
            process.stderr.write(formatTraceImportError(file, error));
            process.exitCode = 2;
          }
        }
      } finally {
        await context.close();
      }
    });
}
