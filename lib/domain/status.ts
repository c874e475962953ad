import { z } from "zod";

/**
 * One status for a branch, computed in one place from the log and the
 * execution lease (DESIGN.md §8 "Status is a projection too"); the server
 * computes it and the client shows what the server says.
 *
 * - `queued`: the log says running and no worker holds the branch (a new run, a
 *   resumed or forked branch waiting for a free worker slot);
 * - `running`: a live worker holds the branch's lease;
 * - `pausing` / `cancelling`: a live worker holds it and a `pause-request` /
 *   `cancel-request` waits for its next step boundary;
 * - `interrupted`: the log says running but the worker that held it died (its lease
 *   expired or its process is gone); a worker pool takes it over and resumes it
 *   from its log;
 * - `paused`, `ended`, `error`: as the log says;
 * - `budget-exhausted` (lib/domain/budget.ts): the log says paused, by a `run-pause` of
 *   reason `budget` — the run's budget is spent; resume with a higher budget (`budget-edit`).
 */
export const runStatusSchema = z.enum(["queued", "running", "pausing", "cancelling", "paused", "ended", "error", "interrupted", "budget-exhausted"]);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** The log's own word on a branch (see `foldRun` / the branch summary). */
export interface LogStatusFacts {
  status: "running" | "paused" | "ended" | "error";
  pauseRequested: boolean;
  cancelRequested: boolean;
  /** Why the log says paused (its last `run-pause`), when it does; absent = unknown (read as a plain pause). */
  pause?: { reason: string } | null;
}

/**
 * What the store knows about who executes a branch: `none` (no lease row: never
 * claimed, or released), `live` (an unexpired lease whose owner is alive), or
 * `dead` (a lease row whose owner's process is gone or whose time ran out).
 */
export type LeaseState = "none" | "live" | "dead";

/** The branch's status from its log facts and its lease (see {@link runStatusSchema}). */
export function branchStatus(log: LogStatusFacts, lease: LeaseState): RunStatus {
  if (log.status === "paused" && log.pause?.reason === "budget") return "budget-exhausted";
  if (log.status !== "running") return log.status;
  if (lease === "live") return log.cancelRequested ? "cancelling" : log.pauseRequested ? "pausing" : "running";
  return lease === "dead" ? "interrupted" : "queued";
}

/** Statuses after which nothing more happens on a branch without a new request (resume or fork). */
export function isTerminalStatus(status: RunStatus): boolean {
  return status === "ended" || status === "error";
}

/** Statuses in which a worker is (or is about to be) executing the branch: Cancel applies, edits do not. */
export function isLiveStatus(status: RunStatus): boolean {
  return status === "queued" || status === "running" || status === "pausing" || status === "cancelling" || status === "interrupted";
}

/** What a person (UI button, API route, CLI command) can ask of a branch. */
export type BranchAction = "pause" | "resume" | "step" | "cancel" | "edit" | "breakpoints";

/**
 * Which controls a branch's status allows — the one rule the run service (which refuses the
 * rest with a conflict), the run page's controls, the Steer tab, the memory panel and the CLI
 * read. Forking is not here: a fork starts from a checkpoint of any branch, whatever its status.
 *
 * - `pause`: a branch a worker runs or is about to run — `queued`, `running`, and `interrupted`
 *   (its worker died; pausing it keeps the next worker from taking it over);
 * - `resume`: `paused`, `interrupted`, and `budget-exhausted` (only with a higher budget: the
 *   server refuses a resume that leaves no room, naming what was spent);
 * - `step` (resume for one action, then pause): as `resume`;
 * - `cancel`: anything not yet finished (`ended`, `error`); `cancelling` re-sends the request;
 * - `edit` (reflections, memory, templates, models, the next action): the log says paused —
 *   `paused` and `budget-exhausted` — so no worker is driving the branch;
 * - `breakpoints`: anything not yet finished.
 */
export function allowedActions(status: RunStatus): Record<BranchAction, boolean> {
  const finished = isTerminalStatus(status);
  return {
    pause: status === "queued" || status === "running" || status === "interrupted",
    resume: status === "paused" || status === "interrupted" || status === "budget-exhausted",
    step: status === "paused" || status === "interrupted" || status === "budget-exhausted",
    cancel: !finished,
    edit: status === "paused" || status === "budget-exhausted",
    breakpoints: !finished,
  };
}

/**
 * The model call a worker is waiting on now, for "how long has it run" in the
 * UI and the CLI. Kept with the branch's lease (not in the log: it is transient).
 */
export const callActivitySchema = z.object({
  role: z.enum(["actor", "reflector"]),
  trial: z.number().int().positive(),
  /** The Actor step; null for a Self-Reflection call. */
  step: z.number().int().positive().nullable(),
  /** ISO-8601 time the call started. */
  startedAt: z.string(),
  /** Set while the call waits to retry a failed attempt (rate limit, server error, timeout): when (ISO-8601), which attempt failed, why. */
  retry: z.object({ at: z.string(), attempt: z.number().int().positive(), message: z.string() }).nullable().default(null),
});
export type CallActivity = z.infer<typeof callActivitySchema>;
