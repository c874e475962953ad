/**
 * CONTRACT (shared with the UI half). Change only additively, so records and clients
 * written against it keep working.
 * - {@link PAPER_LOG_CALL_PREFIX}: imported reflections and steps have no
 *   model call; `reflection-end.callId` is `paper-log:<uuid>` (no `model-call-end` exists),
 *   step events have `callId: null`. Imported ALFWorld and programming runs cannot be forked
 *   (RunService says why); imported HotpotQA runs can.
 * - Optional `contentSha256` (what identifies an import: the SHA-256 of the log's
 *   content, for an ALFWorld run of its trial files in trial order) and optional `verified` (true
 *   only when that content equals a log shipped in the shared data folder; absent on older
 *   records = unknown, treat as not verified).
 *
 * Provenance of a run or experiment that was not run here but imported from
 * the Reflexion authors' published logs (shared/data/reflexion, SOURCES.md;
 * shared/docs/reflexion-reference.md §2.10, §3.7, §4.5). A run whose config
 * carries a provenance is read-only: it can be opened, folded, compared and
 * forked, never resumed, paused or edited (docs/decisions/0015).
 */
import { z } from "zod";

/** One "Trial N, Correct: c, Incorrect: i, Halted: h" line as printed in a HotpotQA log. */
export const logSummaryLineSchema = z.object({
  /** 1-based trial number as printed. */
  trial: z.number().int().positive(),
  correct: z.number().int().nonnegative(),
  incorrect: z.number().int().nonnegative(),
  halted: z.number().int().nonnegative(),
});
export type LogSummaryLine = z.infer<typeof logSummaryLineSchema>;

/**
 * Where an imported run or experiment comes from.
 * - `label`: the arm's label as derived from the file, e.g. "ReAct + Reflexion".
 * - `source`: the log's path relative to the data root (e.g.
 *   `reflexion/hotpotqa_runs/root/ReAct/100_questions_5_trials.txt`), or the uploaded file name.
 * - `model`: the model as the authors logged it ("text-davinci-003", "gpt-4", …).
 * - `notes`: honest caveats shown with the run, e.g. "ALFWorld trajectories were not
 *   published: only success and reflections per trial".
 * - `logSummary`: the log's own per-trial summary lines where it prints them
 *   (HotpotQA text logs), else null. They may disagree with the blocks; the import's
 *   warnings say so and both figures are kept.
 */
export const provenanceSchema = z.object({
  /** `paper-log`: the authors' published logs; `bundle`: a run bundle; `external-trace`: an outside agent's trace (OTLP, Inspect, LangSmith, Langfuse). */
  kind: z.enum(["paper-log", "bundle", "external-trace"]),
  label: z.string(),
  source: z.string(),
  /** `agent`: an outside agent recorded it (kind `external-trace`). */
  recordedBy: z.enum(["authors", "bundle", "agent"]),
  year: z.number().int(),
  model: z.string(),
  notes: z.array(z.string()),
  logSummary: z.array(logSummaryLineSchema).nullable(),
  /** SHA-256 (hex) of the imported content; an ALFWorld run: of its trial files' contents in trial order. Absent on records imported before it existed. */
  contentSha256: z.string().optional(),
  /** True only when the content equals a log shipped in the shared data folder; false for an edited or unknown copy; absent (older records) = unknown. */
  verified: z.boolean().optional(),
  /** `kind: "bundle"`: the ids of the branches that came in the bundle (each read-only here). */
  bundleBranchIds: z.array(z.string()).optional(),
  /** `kind: "external-trace"`: the trace file's format (`otlp`, `inspect`, `langsmith`, `langfuse`). */
  traceFormat: z.string().optional(),
  /** `kind: "external-trace"`: the trace's id in its source (OTLP trace id, Inspect sample id, root run id). */
  traceId: z.string().optional(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

/** The message of every refusal to change an imported run (RunService; UI badge wording). */
export const READ_ONLY_MESSAGE = "This run was recorded by the authors in 2023 — fork it to continue.";

/** The message of every refusal to change a branch that came in a run bundle. */
export const READ_ONLY_BUNDLE_MESSAGE = "This branch came in an imported bundle and is read-only — replay it recorded or fork it to continue.";

/** The message of every refusal to change a run imported from an outside agent's trace. */
export const READ_ONLY_TRACE_MESSAGE = "This run is an imported trace of an agent that ran elsewhere and is read-only — reflect on it or compare it; there is no world here to continue it in.";

/** The words of a trace provenance, e.g. "Imported trace (OTLP, file agent.jsonl)". */
export function traceProvenanceLabel(provenance: Pick<Provenance, "traceFormat" | "source">): string {
  const format = TRACE_FORMAT_NAMES[provenance.traceFormat ?? ""] ?? provenance.traceFormat ?? "trace";
  return `Imported trace (${format}, file ${provenance.source})`;
}

const TRACE_FORMAT_NAMES: Record<string, string> = { otlp: "OTLP", inspect: "Inspect AI", langsmith: "LangSmith", langfuse: "Langfuse" };

/** Prefix of the synthetic call id of every imported reflection (`paper-log:<uuid>`); no `model-call-end` exists for it. */
export const PAPER_LOG_CALL_PREFIX = "paper-log:";
