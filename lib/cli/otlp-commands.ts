import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { cliContext } from "./context";

/**
 * `cli export-otlp --run <id> [--endpoint <url>] [--out file.jsonl]`: the run's traces
 * built from its event log (lib/otel/**). `--out` writes OTLP JSON lines (one ExportTraceServiceRequest
 * per branch); otherwise the spans go as OTLP/HTTP protobuf to `--endpoint` or `REFLEXION_OTLP_ENDPOINT`,
 * with the headers of `REFLEXION_OTLP_HEADERS` (e.g. Langfuse's `Authorization=Basic …`).
 */
export function registerOtlpCommands(program: Command): void {
  program
    .command("export-otlp")
    .description("Export a run's traces (from its log) as OpenTelemetry: send OTLP/HTTP protobuf to a collector (Phoenix, Langfuse) or write OTLP JSON lines.")
    .requiredOption("--run <id>", "the run to export (all its branches)")
    .option("--endpoint <url>", "the collector's traces URL (default REFLEXION_OTLP_ENDPOINT), e.g. http://127.0.0.1:6006/v1/traces")
    .option("--out <file>", "write OTLP JSON lines to this file instead of sending")
    .option("--strip-names", "replace people's names (annotation authors, who made each edit) with pseudonyms: person 1, person 2, …")
    .action(async (options: { run: string; endpoint?: string; out?: string; stripNames?: boolean }) => {
      const names = options.stripNames ? "strip" : "keep";
      const context = cliContext();
      try {
        if (options.out) {
          const lines = await context.otlp.jsonLines(options.run, names);
          fs.mkdirSync(path.dirname(path.resolve(options.out)), { recursive: true });
          fs.writeFileSync(options.out, lines);
          process.stdout.write(`${options.out}: ${lines.split("\n").filter(Boolean).length} trace(s) as OTLP JSON lines\n`);
          return;
        }
        const sent = await context.otlp.send(options.run, options.endpoint, names);
        process.stdout.write(`Sent ${sent.spans} spans in ${sent.requests} request(s) to ${sent.endpoint}\n`);
      } finally {
        await context.close();
      }
    });
}
