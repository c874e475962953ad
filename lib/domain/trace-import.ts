import { z } from "zod";

/**
 * What `POST /api/imports/traces` and `cli import-traces --json` answer (lib/server/trace-import-service.ts):
 * per file, the experiment its traces became (one arm, "Imported traces: <file name>"), the runs
 * (one read-only run per trace), the format read, the number of traces imported, the per-record
 * problems, and whether the same content had been imported before (then nothing new was stored).
 */

/** A record that could not be read, and where it is ("line 12", "trace 5f2a…"). */
export const traceProblemSchema = z.object({ where: z.string(), message: z.string() });

/** The formats a trace file can be in (lib/importers/external/external-trace.ts `TraceFormat`). */
export const traceFormatSchema = z.enum(["otlp", "inspect", "langsmith", "langfuse"]);

/** One imported file. */
export const traceImportResultSchema = z.object({
  /** The file's name as uploaded or given. */
  file: z.string(),
  experimentId: z.string(),
  runIds: z.array(z.string()),
  format: traceFormatSchema,
  /** Traces imported (= runs). */
  traces: z.number().int().nonnegative(),
  problems: z.array(traceProblemSchema),
  /** True when this content had been imported before: the existing experiment is returned and nothing is stored. */
  reused: z.boolean(),
});
export type TraceImportResult = z.infer<typeof traceImportResultSchema>;

/** The answer of `POST /api/imports/traces`: one result per file, in the order sent. */
export const traceImportResponseSchema = z.object({ imports: z.array(traceImportResultSchema) });
export type TraceImportResponse = z.infer<typeof traceImportResponseSchema>;
