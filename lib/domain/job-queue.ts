import { z } from "zod";

/**
 * Shapes of the job queue as the API returns them (`GET /api/jobs/dead-letters`,
 * the /jobs page). The queue itself is lib/server/job-queue.
 */

/** A job that failed every attempt (its dead letter). Times are ISO-8601. */
export const deadLetterSchema = z.object({
  /** The queue's job id (uuid). */
  id: z.string(),
  runId: z.string(),
  branchId: z.string(),
  priority: z.enum(["interactive", "batch"]),
  /** The last attempt's error message, or null when none was recorded. */
  error: z.string().nullable(),
  /** Attempts made, the first included. */
  attempts: z.number().int().nonnegative(),
  createdAt: z.string(),
  failedAt: z.string().nullable(),
});
export type DeadLetterView = z.infer<typeof deadLetterSchema>;

/** `GET /api/jobs/dead-letters`. `mode` `in-process`: the embedded default, which has no job queue (so no dead letters). */
export const deadLettersResponseSchema = z.object({
  mode: z.enum(["in-process", "pg-boss"]),
  /** Jobs waiting for a worker, running now, and dead letters (counts). */
  stats: z.object({ queued: z.number().int(), active: z.number().int(), failed: z.number().int() }),
  deadLetters: z.array(deadLetterSchema),
});
export type DeadLettersResponse = z.infer<typeof deadLettersResponseSchema>;
