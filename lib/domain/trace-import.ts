import { z } from "zod";

/**
 * What `POST /api/imports/traces` and `cli import-traces --json` answer (lib/server/trace-import-service.ts):
 * per file, the experiment its traces became (one arm, "Imported traces: <file name>"), the runs
 * (one read-only run per trace), the format read, the number of traces imported, the per-record
 * problems, and whether the same content had been imported before (then nothing new was stored);
 * and the files of which nothing was imported, with the reason.
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

/** A file of which nothing was imported, and why (the message names the file and says what to do). */
export const traceImportFailureSchema = z.object({
  /** The file's name as uploaded. */
  file: z.string(),
  /** Its position among the files sent (0-based), so a client can put it back among the imported ones. */
  index: z.number().int().nonnegative(),
  /** The error's code (lib/domain/errors.ts `AppErrorCode`: `invalid-input`, `invalid-dataset`, `too-large`, …). */
  code: z.string(),
  message: z.string(),
  /** True when naming another format may help: the format could not be told, or nothing could be read in the one used. */
  formatMayHelp: z.boolean().default(false),
});
export type TraceImportFailure = z.infer<typeof traceImportFailureSchema>;

/**
 * The answer of `POST /api/imports/traces`: each file is imported on its own. `imports` holds the
 * files imported, in the order sent; `failed` those of which nothing was imported (absent from an
 * older server's answer: read as none). 200 when at least one file was imported; when every file
 * failed, 400 with `{ error }` (the first failure, as lib/domain/api.ts `apiErrorSchema` reads it) besides an
 * empty `imports` and the `failed` list.
 */
export const traceImportResponseSchema = z.object({ imports: z.array(traceImportResultSchema), failed: z.array(traceImportFailureSchema).default([]) });
export type TraceImportResponse = z.infer<typeof traceImportResponseSchema>;
