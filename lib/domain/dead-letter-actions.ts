import { z } from "zod";
import { deadLetterSchema, deadLettersResponseSchema } from "./job-queue";

/**
 * Shapes of the dead-letter actions of shared mode (`/jobs`, `cli jobs …`,
 * `POST /api/jobs/dead-letters/…`): what became of a letter's branch since its job failed, and
 * what a retry or a discard did. The queue is lib/server/job-queue; the rules are in
 * lib/server/job-queue/dead-letter-service.ts.
 */

/** A letter's branch now: its log's status, or `missing` when this database has no such branch. */
export const letterBranchStatusSchema = z.enum(["running", "paused", "ended", "error", "missing"]);
export type LetterBranchStatus = z.infer<typeof letterBranchStatusSchema>;

/** A dead letter with what its branch is doing now (so the list says which letters a retry can act on). */
export const deadLetterRowSchema = deadLetterSchema.extend({
  branch: z.object({
    status: letterBranchStatusSchema,
    /** `run-end`'s outcome (`success`, `failure`, `cancelled`, …) once the branch ended, else null. */
    outcome: z.string().nullable(),
    /** A job for the branch is queued or running again (the letter was retried from another process). */
    queuedAgain: z.boolean(),
  }),
  /** Why a retry would be refused (the branch ended, is paused, or is missing), or null when it can be retried. */
  retryRefusal: z.string().nullable(),
});
export type DeadLetterRow = z.infer<typeof deadLetterRowSchema>;

/** `GET /api/jobs/dead-letters`: the counts and the letters with their branches' state (a superset of {@link deadLettersResponseSchema}). */
export const deadLetterListResponseSchema = deadLettersResponseSchema.extend({ deadLetters: z.array(deadLetterRowSchema) });
export type DeadLetterListResponse = z.infer<typeof deadLetterListResponseSchema>;

/**
 * What retrying one letter did:
 * - `requeued`: a job for the branch was created (same key `branch:<id>`); the letter is removed;
 * - `already-queued`: a job for the branch was already queued or running; the letter is removed;
 * - `finished` / `paused` / `missing`: refused, nothing enqueued, the letter stays (discard it).
 */
export const retryOutcomeSchema = z.enum(["requeued", "already-queued", "finished", "paused", "missing"]);
export type RetryOutcome = z.infer<typeof retryOutcomeSchema>;

/** One letter's retry result, with a sentence for a person (the CLI prints it, the UI shows it). */
export const retryResultSchema = z.object({
  letterId: z.string(),
  runId: z.string(),
  branchId: z.string(),
  outcome: retryOutcomeSchema,
  message: z.string(),
});
export type RetryResult = z.infer<typeof retryResultSchema>;

/** `POST /api/jobs/dead-letters/retry-all`: every letter's result, and how many were enqueued again. */
export const retryAllResponseSchema = z.object({
  results: z.array(retryResultSchema),
  requeued: z.number().int().nonnegative(),
  refused: z.number().int().nonnegative(),
});
export type RetryAllResponse = z.infer<typeof retryAllResponseSchema>;

/** `POST /api/jobs/dead-letters/:letterId/discard`. */
export const discardResponseSchema = z.object({ discarded: z.string() });
export type DiscardResponse = z.infer<typeof discardResponseSchema>;
