import { z } from "zod";
import type { RunState, TrialView } from "./fold-run";

/**
 * "Reflections that worked" and "reflections that did not help" (teaching
 * material from real runs). Reflexion (Shinn et al. 2023, §3) writes
 * a reflection after a failed or halted trial and puts it in the episodic
 * memory of the next trial; whether the next trial then succeeded is the
 * plainest evidence of what the reflection did. Pure: from a run's fold
 * (lib/domain/fold-run.ts), no I/O.
 *
 * HTTP: `GET /api/reflections?experimentId=&runId=&q=&helped=true|false&limit=&cursor=`
 * → {@link reflectionListResponseSchema} (params: {@link reflectionQuerySchema}).
 */

/** A short view of a trial: enough to recall what happened without opening the run. */
export const trialGlimpseSchema = z.object({
  trial: z.number().int().positive(),
  /** null while the trial has not ended. */
  outcome: z.enum(["success", "failure", "halted"]).nullable(),
  /** Steps taken (Thought → Action → Observation). */
  steps: z.number().int().nonnegative(),
  /** The last actions as written (at most {@link GLIMPSE_ACTIONS}), oldest first. */
  lastActions: z.array(z.string()),
  /** The answer submitted by a final action, if any. */
  answer: z.string().nullable(),
  /** The Evaluator's feedback (e.g. "Answer is INCORRECT"), if it judged the trial. */
  feedback: z.string().nullable(),
  /** Why the trial ended (e.g. "step limit", "loop"). */
  endReason: z.string().nullable(),
});
export type TrialGlimpse = z.infer<typeof trialGlimpseSchema>;

/** What a reflection was followed by: the next trial succeeded, did not, or there is no ended next trial yet. */
export const reflectionVerdictSchema = z.enum(["helped", "did-not-help", "no-next-trial"]);
export type ReflectionVerdict = z.infer<typeof reflectionVerdictSchema>;

/** One reflection with the failed trial it came from and the next trial's outcome. */
export const reflectionOutcomeSchema = z.object({
  /** The `reflection-end` event id (= the run graph's reflection node id). */
  reflectionEventId: z.string(),
  /** The text now (edits applied). */
  text: z.string(),
  /** The text as the model wrote it. */
  originalText: z.string(),
  edited: z.boolean(),
  /** The failed (or halted) trial the reflection was written after. */
  failed: trialGlimpseSchema,
  /** The next trial, or null when the run has none. */
  next: trialGlimpseSchema.nullable(),
  /** The next trial's Actor saw this reflection (it was in its memory window). */
  inNextMemory: z.boolean(),
  verdict: reflectionVerdictSchema,
  /** `verdict === "helped"`: the next trial succeeded. */
  helped: z.boolean(),
});
export type ReflectionOutcome = z.infer<typeof reflectionOutcomeSchema>;

/** How many of a trial's last actions a glimpse keeps. */
export const GLIMPSE_ACTIONS = 3;

/** The {@link TrialGlimpse} of a folded trial. */
export function trialGlimpse(trial: TrialView): TrialGlimpse {
  const actions = trial.steps.map((step) => step.action?.text).filter((text): text is string => typeof text === "string" && text.length > 0);
  return {
    trial: trial.trial,
    outcome: trial.outcome,
    steps: trial.steps.length,
    lastActions: actions.slice(-GLIMPSE_ACTIONS),
    answer: trial.answer,
    feedback: trial.evaluation?.feedback ?? null,
    endReason: trial.endReason,
  };
}

/**
 * Every reflection of a run, oldest first, each with the trial it was written
 * after and what the next trial did: `helped` when the next trial ended in
 * success, `did-not-help` when it ended in failure or was halted, and
 * `no-next-trial` when there is no ended next trial (the run stopped at its
 * trial budget, was cancelled, or still runs).
 */
export function reflectionOutcomes(state: Pick<RunState, "trials">): ReflectionOutcome[] {
  const out: ReflectionOutcome[] = [];
  const trials = [...state.trials].sort((a, b) => a.trial - b.trial);
  for (const [index, trial] of trials.entries()) {
    const reflection = trial.reflection;
    if (!reflection) continue;
    const nextTrial = trials[index + 1];
    const next = nextTrial && nextTrial.trial === trial.trial + 1 ? nextTrial : undefined;
    const verdict: ReflectionVerdict = !next || next.outcome === null ? "no-next-trial" : next.outcome === "success" ? "helped" : "did-not-help";
    out.push({
      reflectionEventId: reflection.eventId,
      text: reflection.text,
      originalText: reflection.originalText,
      edited: reflection.edits > 0,
      failed: trialGlimpse(trial),
      next: next ? trialGlimpse(next) : null,
      inNextMemory: next ? next.memory.some((item) => item.id === reflection.eventId) : false,
      verdict,
      helped: verdict === "helped",
    });
  }
  return out;
}

/**
 * Whether a reflection matches a text query: every word of `query`
 * (case-insensitive) occurs in the reflection, the failed trial's actions,
 * answer or feedback, or in `context` (e.g. the run's title and task id).
 * An empty query matches everything.
 */
export function matchesQuery(outcome: ReflectionOutcome, query: string, context: readonly string[] = []): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word.length > 0);
  if (words.length === 0) return true;
  const haystack = [outcome.text, ...outcome.failed.lastActions, outcome.failed.answer ?? "", outcome.failed.feedback ?? "", ...context].join("\n").toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** `helped=true|false` as a query parameter. */
const booleanParam = z.enum(["true", "false"]).transform((value) => value === "true");

/** Largest page of `GET /api/reflections`. */
export const REFLECTION_PAGE_MAX = 200;

/**
 * Query parameters of `GET /api/reflections` (strings, as in a URL):
 * - `experimentId` / `runId`: the runs to read (neither: the most recent runs);
 * - `q`: words that must all occur (see {@link matchesQuery});
 * - `helped`: `true` = reflections that worked, `false` = did not help (both leave out `no-next-trial`);
 * - `limit`: page size, 1–{@link REFLECTION_PAGE_MAX} (default 50); `cursor`: the `nextCursor` of the previous page.
 */
export const reflectionQuerySchema = z.object({
  experimentId: z.string().trim().min(1).max(200).optional(),
  runId: z.string().trim().min(1).max(200).optional(),
  q: z.string().max(500).default(""),
  helped: booleanParam.optional(),
  limit: z.coerce.number().int().min(1).max(REFLECTION_PAGE_MAX).default(50),
  cursor: z
    .string()
    .regex(/^\d+$/, "cursor is the nextCursor of the previous page (a whole number)")
    .transform(Number)
    .optional(),
});
export type ReflectionQuery = z.infer<typeof reflectionQuerySchema>;

/** One item of the list: the reflection's outcome and where it is. */
export const reflectionListItemSchema = reflectionOutcomeSchema.extend({
  runId: z.string(),
  runTitle: z.string(),
  taskId: z.string(),
  environment: z.string(),
  strategy: z.string(),
  /** The experiment arm the run belongs to, if any. */
  experimentId: z.string().nullable(),
  arm: z.string().nullable(),
  /** Imported from the authors' logs ("recorded by the authors, 2023"): the source file; null for runs made here. */
  recordedSource: z.string().nullable(),
});
export type ReflectionListItem = z.infer<typeof reflectionListItemSchema>;

/** `GET /api/reflections` answer: one page, the counts over every match (before paging), the next page's cursor. */
export const reflectionListResponseSchema = z.object({
  items: z.array(reflectionListItemSchema),
  /** Matches of the query and filter, all pages. */
  total: z.number().int().nonnegative(),
  /** Over the query's matches regardless of `helped`: how many worked, did not help, have no next trial. */
  counts: z.object({ helped: z.number().int().nonnegative(), notHelped: z.number().int().nonnegative(), noNextTrial: z.number().int().nonnegative() }),
  /** Runs read. */
  runs: z.number().int().nonnegative(),
  nextCursor: z.string().nullable(),
});
export type ReflectionListResponse = z.infer<typeof reflectionListResponseSchema>;

/**
 * Filters and pages a list of items (already in display order): `q` and
 * `helped` as in {@link reflectionQuerySchema}; `cursor` is an offset into
 * the filtered list. `contextOf` gives each item's extra searchable text.
 */
export function pageReflections(
  items: readonly ReflectionListItem[],
  query: Pick<ReflectionQuery, "q" | "helped" | "limit" | "cursor">,
  runs: number,
  contextOf: (item: ReflectionListItem) => readonly string[] = (item) => [item.runTitle, item.taskId, item.arm ?? ""],
): ReflectionListResponse {
  const matching = items.filter((item) => matchesQuery(item, query.q, contextOf(item)));
  const counts = {
    helped: matching.filter((item) => item.verdict === "helped").length,
    notHelped: matching.filter((item) => item.verdict === "did-not-help").length,
    noNextTrial: matching.filter((item) => item.verdict === "no-next-trial").length,
  };
  const filtered = query.helped === undefined ? matching : matching.filter((item) => item.verdict === (query.helped ? "helped" : "did-not-help"));
  const start = query.cursor ?? 0;
  const page = filtered.slice(start, start + query.limit);
  const end = start + page.length;
  return { items: page, total: filtered.length, counts, runs, nextCursor: end < filtered.length ? String(end) : null };
}
