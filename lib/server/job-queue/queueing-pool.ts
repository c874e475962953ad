import type { BranchId, RunId } from "@/lib/domain/ids";
import { describePgError } from "@/lib/db/pg/describe-pg-error";
import type { RunStore } from "@/lib/db/store";
import type { EngineDeps } from "@/lib/engine/run-engine";
import { leaseStateOf } from "../lease-owner";
import type { RunEventBus } from "../run-event-bus";
import { DEFAULT_CONCURRENCY, WorkerPool, type WorkerPoolOptions } from "../worker-pool";
import type { BranchJob, BranchJobHandler, JobPriority, JobQueue } from "./port";

/** How often a shared-mode process reconciles the store's runnable branches with the queue, in ms. */
export const DEFAULT_RECONCILE_MS = 2_000;

/**
 * The worker pool of a process in shared mode (`REFLEXION_DATABASE_URL`): it never claims branches
 * by polling the store. Instead, whenever the embedded pool would have looked for work (a run was
 * created, resumed, forked or cancelled — the services call {@link wake}) and every
 * `reconcileMs`, it reconciles the store with the job queue:
 * - every runnable branch (log says running) that no live worker holds gets a job — one per
 *   branch, keyed, so nothing is enqueued twice; runs of an experiment as `batch`, others as
 *   `interactive` (fetched first);
 * - every queued job whose branch is no longer runnable (cancelled, paused, ended) is cancelled
 *   (one naming a branch the store does not have is left to fail into the dead letters).
 * Branches are driven by `cli worker` processes through {@link branchJobHandler}; `drive` (used
 * by `cli run` for the run it follows) works as in the embedded pool.
 */
export class QueueingWorkerPool extends WorkerPool {
  private timer: ReturnType<typeof setInterval> | null = null;
  private reconciling: Promise<void> | null = null;
  private again = false;
  private halted = false;
  private readonly priorities = new Map<RunId, JobPriority>();

  constructor(
    private readonly runStore: RunStore,
    deps: EngineDeps,
    bus: RunEventBus | undefined,
    private readonly poolOptions: WorkerPoolOptions,
    readonly queue: JobQueue,
    private readonly reconcileMs = DEFAULT_RECONCILE_MS,
  ) {
    super(runStore, deps, bus, poolOptions);
  }

  /**
   * Starts reconciling now and every `reconcileMs`, and working jobs of the queue (at most the
   * pool's `concurrency` at once; app servers and `cli worker` both do). Idempotent.
   */
  override start(): this {
    if (this.timer || this.halted) return this;
    this.timer = setInterval(() => this.wake(), this.reconcileMs);
    this.timer.unref?.();
    this.wake();
    // REFLEXION_CONCURRENCY=0 (shared mode): an app server that only serves pages reconciles but works no job.
    if (this.poolOptions.concurrency !== 0) void this.queue
      .work(branchJobHandler(this, this.runStore), { concurrency: this.jobConcurrency })
      .catch((error: unknown) => console.error(`[jobs] cannot fetch jobs: ${describePgError(error)}`));
    return this;
  }

  /** Branch jobs this process drives at once. */
  get jobConcurrency(): number {
    return Math.max(1, this.poolOptions.concurrency ?? DEFAULT_CONCURRENCY);
  }

  override get started(): boolean {
    return this.timer !== null;
  }

  /** Reconciles soon (coalesced: at most one pass at a time, one more queued behind it). */
  override wake(): void {
    if (this.halted) return;
    void this.reconcile().catch((error: unknown) => console.error(`[jobs] reconcile failed: ${describePgError(error)}`));
  }

  /** One reconciliation pass (awaited by tests and `cli run --detach`); see the class comment. */
  reconcile(): Promise<void> {
    if (this.reconciling) {
      this.again = true;
      return this.reconciling;
    }
    this.reconciling = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again && !this.halted);
      } finally {
        this.reconciling = null;
      }
    })();
    return this.reconciling;
  }

  /** Resolves when no job of this queue is queued or active and nothing is driven here. */
  override async whenIdle(): Promise<void> {
    for (;;) {
      await this.reconcile();
      const stats = await this.queue.stats();
      if (stats.queued === 0 && stats.active === 0 && this.activeCount === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  override async stop(): Promise<void> {
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.reconciling?.catch(() => undefined);
    await super.stop();
  }

  private async pass(): Promise<void> {
    // Queued first: a branch whose job is still queued needs no send (with hundreds of queued runs and several
    // processes reconciling every few seconds, re-sending each one would be most of the database's work).
    const queued = new Set<BranchId>(await this.queue.queuedBranches());
    const runnable = await this.runStore.listRunnableBranches(100_000);
    const jobs: BranchJob[] = [];
    const runnableIds = new Set<string>();
    const candidates = [];
    for (const branch of runnable) {
      runnableIds.add(branch.branchId);
      if (queued.has(branch.branchId) || this.isActive(branch.branchId) || leaseStateOf(branch.lease) === "live") continue;
      candidates.push(branch);
    }
    // A branch whose job is being worked (its worker between drives, or dead but not yet noticed) or
    // waits for a retry gets no second job: that one would take the retry's place and the failing
    // attempt would go straight to the dead letters (pg-boss `stately`: one job per state and key).
    // Nor does a dead-lettered one: it waits for a person to retry or discard its letter (/jobs).
    const withJobs = candidates.length > 0 ? await this.queue.branchesWithJobs(candidates.map((branch) => branch.branchId)) : new Set<BranchId>();
    for (const branch of candidates) {
      if (withJobs.has(branch.branchId)) continue;
      jobs.push({ runId: branch.runId, branchId: branch.branchId, priority: await this.priorityOf(branch.runId) });
    }
    // Keyed: a job another process enqueued in the meantime is not made twice.
    if (jobs.length > 0) await this.queue.enqueue(jobs);
    // Queued jobs of branches that stopped being runnable (cancelled, paused) go; a job naming a branch
    // this database does not have stays, to fail and show up as a dead letter. (A branch made runnable
    // after the list above was read is not among the queued ones read before it, so it is not cancelled.)
    const stale = [];
    for (const branchId of queued) {
      if (!runnableIds.has(branchId) && (await this.runStore.getBranchSummary(branchId)) !== null) stale.push(branchId);
    }
    if (stale.length > 0) await this.queue.cancelQueued(stale);
  }

  private async priorityOf(runId: RunId): Promise<JobPriority> {
    const known = this.priorities.get(runId);
    if (known) return known;
    const priority: JobPriority = (await this.runStore.experiments.experimentOfRun(runId)) ? "batch" : "interactive";
    this.priorities.set(runId, priority);
    return priority;
  }
}

/** Why a job is given back to the queue (retried with backoff) rather than completed. */
export class RetryLater extends Error {
  override readonly name = "RetryLater";
}

/**
 * The job handler of workers in shared mode: drives the job's branch with this process's pool and
 * resolves once it paused, ended or failed (its log says so). Completes at once when the branch is
 * not runnable any more (a duplicate delivery, or it was cancelled) and when a live worker holds its
 * lease (that one drives it; should it die, reconciliation enqueues the branch again). Rejects — so
 * pg-boss retries the job with backoff, then dead-letters it — when the branch is not in this
 * database, when the event log failed, and when the drive stopped before the branch did (this
 * worker is shutting down or lost its lease).
 */
export function branchJobHandler(pool: WorkerPool, store: RunStore): BranchJobHandler {
  return async (job) => {
    const summary = await store.getBranchSummary(job.branchId);
    if (!summary) throw new Error(`branch ${job.branchId} of run ${job.runId} is not in this database (a job from another database using the same queue schema?)`);
    if (summary.status !== "running") return;
    if (!(await pool.drive(job.runId, job.branchId))) return;
    const result = await pool.settled(job.branchId);
    // Done with the job exactly when the branch is no longer runnable (paused, ended, failed).
    const after = await store.getBranchSummary(job.branchId);
    if (!after || after.status !== "running") return;
    if (result === null) throw new RetryLater(`branch ${job.branchId}: the event log failed: ${pool.lastFailure(job.branchId) ?? "see the worker's output"}`);
    throw new RetryLater(`branch ${job.branchId}: this worker stopped before the branch did (${result.stoppedBecause})`);
  };
}
