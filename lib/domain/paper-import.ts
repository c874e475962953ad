/**
 * CONTRACT (shared with the UI half). Change only additively, so records and clients
 * written against it keep working.
 *
 * HTTP API for importing the Reflexion authors' published run logs
 * (shared/data/reflexion, SOURCES.md) as read-only runs + one experiment per log
 * (docs/decisions/0015-importing-the-papers-runs.md).
 *
 * - `GET  /api/imports` → {@link importListResponseSchema}: the shared folder's log
 *   files, found under `REFLEXION_DATA_ROOT` (a folder holding `reflexion/`) or
 *   `../shared/data` relative to the server's cwd when present; `dataRoot` is null
 *   (and `files` empty) when neither exists. An ALFWorld run folder
 *   (`env_results_trial_N.json` files) counts as one entry whose `path` is the folder.
 * - `POST /api/imports` with JSON {@link importRequestSchema} (`paths` taken from the
 *   list) or `multipart/form-data` with one or more `file` fields (uploads; several
 *   `env_results_trial_N.json` files in one request form one ALFWorld import)
 *   → {@link importResponseSchema} (200). Importing a source that was imported before
 *   returns the existing experiment (idempotent), never a duplicate.
 *   A bad file → 400 `{ error: { code: "invalid-dataset" | "invalid-input", message } }`
 *   (lib/domain/api.ts `apiErrorSchema`) whose message names the file and the line;
 *   nothing of that file is imported (one transaction per file).
 * - Changed (13:30, behaviour only, no shape change): an import is identified by the SHA-256 of its
 *   content (an ALFWorld run: its trial files in trial order; `provenance.contentSha256`), not its
 *   path: the same content by any path or upload returns the existing experiment with
 *   `alreadyImported: true` and the log's warnings (recomputed); other content at a path imported
 *   before is a new import with a warning saying so. `importedExperimentId` follows the file's
 *   current content.
 * - Changed (behaviour only): a body over {@link MAX_IMPORT_UPLOAD_BYTES} → 413 `too-large`, refused
 *   before it is read; an uploaded file may be gzip'd (gunzipped with the `REFLEXION_MAX_INFLATED_MB`
 *   limit, 413 past it).
 */
import { z } from "zod";
import { environmentIdSchema } from "./config";

/** The log formats the importer reads. */
export const paperLogFormatSchema = z.enum(["hotpotqa-text", "alfworld-results", "programming-jsonl"]);
export type PaperLogFormat = z.infer<typeof paperLogFormatSchema>;

/** One importable log in the shared data folder. */
export const importableFileSchema = z.object({
  /** Path relative to the data root, e.g. `reflexion/hotpotqa_runs/root/ReAct/100_questions_5_trials.txt`
   *  or, for ALFWorld, the folder `reflexion/alfworld_runs/root/reflexion_run_logs`. Pass it back in `paths`. */
  path: z.string(),
  /** Task family the runs belong to (`qa` HotpotQA, `household` ALFWorld, `code` programming). */
  family: environmentIdSchema,
  /** Arm label derived from the file, e.g. "ReAct + Reflexion", "MBPP-Py Reflexion". */
  label: z.string(),
  format: paperLogFormatSchema,
  /** Bytes on disk (an ALFWorld folder: the sum of its trial files). */
  sizeBytes: z.number().int().nonnegative(),
  /** The experiment an earlier import of this path created, or null when not yet imported. */
  importedExperimentId: z.string().nullable(),
});
export type ImportableFile = z.infer<typeof importableFileSchema>;

/** `GET /api/imports`. */
export const importListResponseSchema = z.object({
  /** Absolute path of the data root in use, or null when no shared data folder was found. */
  dataRoot: z.string().nullable(),
  files: z.array(importableFileSchema),
});
export type ImportListResponse = z.infer<typeof importListResponseSchema>;

/** `POST /api/imports` JSON body: entries of {@link importListResponseSchema} `files[].path`. */
/** Largest `POST /api/imports` body, bytes (all uploaded files together; the authors' largest log is a few MB). */
export const MAX_IMPORT_UPLOAD_BYTES = 64 * 1024 * 1024;

export const importRequestSchema = z.object({ paths: z.array(z.string().min(1)).min(1).max(50) });
export type ImportRequest = z.infer<typeof importRequestSchema>;

/** What one imported log became. */
export const importResultSchema = z.object({
  /** The path relative to the data root, or the uploaded file name(s). */
  source: z.string(),
  experimentId: z.string(),
  label: z.string(),
  family: environmentIdSchema,
  /** Runs created (one per question / environment / problem). */
  runs: z.number().int().nonnegative(),
  /** Trials of the arm (1 for a one-shot log). */
  trials: z.number().int().positive(),
  /** Tasks solved at or before trial k + 1 (cumulative), as in `cli experiment run --json`. */
  successByTrial: z.array(z.number().int().nonnegative()),
  /** Human-readable caveats: summary lines that disagree with the blocks, questions not in the sample, skipped records… */
  warnings: z.array(z.string()),
  /** True when this source had been imported before and the existing experiment is returned. */
  alreadyImported: z.boolean().default(false),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** `POST /api/imports` answer. */
export const importResponseSchema = z.object({ imports: z.array(importResultSchema) });
export type ImportResponse = z.infer<typeof importResponseSchema>;
