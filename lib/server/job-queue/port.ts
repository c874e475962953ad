import type { BranchId, RunId } from "@/lib/domain/ids";
import type { DeadLetterView } from "@/lib/domain/job-queue";

/**
 * The job-queue port (docs/scale-and-export.md §2.4): how branches that need
 * driving reach workers. Two adapters:
 * - in-process (./in-process-queue.ts): the embedded default — the worker pool of this process
 *   polls the store (decision 0011), so "enqueue" only wakes it; nothing is stored twice;
 * - pg-boss (./pg-boss-queue.ts): shared mode (`REFLEXION_DATABASE_URL=postgres://…`) — one job
 *   per branch in PostgreSQL, fetched by `cli worker` processes on any machine.
 *
 * A job only says *which* branch to drive. What a branch does is in its event log; a driven branch
 * is still fenced by its lease and the store's unique `(branch_id, seq)`, so a job delivered twice
 * (at least once delivery: a worker died, a heartbeat lapsed) cannot append twice.
 */

/** Interactive runs (the UI, `cli run`) are fetched before batch runs (experiments). */
export type JobPriority = "interactive" | "batch";

/** pg-boss priority numbers (higher is fetched first). */
export const PRIORITY_VALUE: Readonly<Record<JobPriority, number>> = { interactive: 10, batch: 0 };

/** One branch to drive. */
export interface BranchJob {
  runId: RunId;
  branchId: BranchId;
  priority: JobPriority;
}

/** The deterministic key of a branch's job: at most one queued (and one active) job per key. */
export function jobKeyOf(job: Pick<BranchJob, "branchId">): string {
  return `branch:${job.branchId}`;
}

/** A job that failed every attempt (its dead letter), as `GET /api/jobs/dead-letters` returns it. */
export type DeadLetter = DeadLetterView;

/** What {@link JobQueue.requeueDeadLetter} did. */
export type RequeueResult = "requeued" | "already-queued";

/** Counts of a queue's jobs by state (for `cli worker`, the jobs page and the bench). */
export interface QueueStats {
  queued: number;
  active: number;
  failed: number;
}

/** Drives one branch; resolves when done with the job, rejects to have it retried (with backoff). */
export type BranchJobHandler = (job: BranchJob, signal: AbortSignal) => Promise<void>;

/** Options of {@link JobQueue.work}. */
export interface WorkOptions {
  /** Jobs handled at once by this process. */
  concurrency: number;
}

/** The port. Every method is safe to call from any process that reaches the queue's database. */
export interface JobQueue {
  /** `in-process` (embedded) or `pg-boss` (shared). */
  readonly kind: "in-process" | "pg-boss";
  /**
   * Enqueues the branches (one job each, key {@link jobKeyOf}). A branch that already has a
   * queued job is not enqueued again. Resolves to the number of jobs actually created.
   */
  enqueue(jobs: readonly BranchJob[]): Promise<number>;
  /** Cancels the queued (not yet fetched) jobs of these branches; resolves to how many were cancelled. */
  cancelQueued(branchIds: readonly BranchId[]): Promise<number>;
  /** The branches that have a queued job now (for reconciliation and tests). */
  queuedBranches(): Promise<BranchId[]>;
  /**
   * Those of `branchIds` that have a job queued, waiting for a retry or being worked now, or a dead
   * letter nobody has retried or discarded yet. A branch is enqueued only when it has none of
   * these: a second job beside an active one would take its retry slot (pg-boss's `stately` policy
   * keeps one job per state and key) and send it straight to the dead letters, and a dead-lettered
   * branch waits for a person (its log still says running).
   */
  branchesWithJobs(branchIds: readonly BranchId[]): Promise<Set<BranchId>>;
  /** Jobs that failed every attempt, newest first. */
  listDeadLetters(limit: number): Promise<DeadLetter[]>;
  /** One dead letter by its id, or null when there is none (never in the embedded mode). */
  deadLetter(id: string): Promise<DeadLetter | null>;
  /**
   * Enqueues the letter's branch job again — same key ({@link jobKeyOf}) and priority, so the
   * branch resumes from its log like any retried job — and removes the letter. Resolves to
   * `requeued`, `already-queued` (a job for the branch was queued or running already: nothing new
   * was created, the letter is still removed), or null when there is no such letter. Whether the
   * branch should run again is the caller's check (lib/server/job-queue/dead-letter-service.ts).
   */
  requeueDeadLetter(id: string): Promise<RequeueResult | null>;
  /** Removes a dead letter; false when there was none. The run's log is not touched. */
  discardDeadLetter(id: string): Promise<boolean>;
  stats(): Promise<QueueStats>;
  /** Starts fetching jobs and handing them to `handler`, at most `concurrency` at once. */
  work(handler: BranchJobHandler, options: WorkOptions): Promise<void>;
  /** Stops fetching; with `graceful`, waits for the handlers running now. */
  stop(options?: { graceful?: boolean }): Promise<void>;
}
