import type { BranchId } from "@/lib/domain/ids";
import type { WorkerPool } from "../worker-pool";
import type { BranchJob, BranchJobHandler, DeadLetter, JobQueue, QueueStats, RequeueResult, WorkOptions } from "./port";

/**
 * The embedded default behind the {@link JobQueue} port: no job is stored — the store's runnable
 * branches *are* the queue, and this process's {@link WorkerPool} claims them by lease, oldest
 * first (decision 0011). So `enqueue` only wakes the pool, `work` starts it, there are no dead
 * letters (a branch that fails records `run-error` in its log) and cancel goes through the log
 * (`cancel-request`), as before this port existed.
 */
export class InProcessJobQueue implements JobQueue {
  readonly kind = "in-process" as const;

  constructor(private readonly pool: WorkerPool) {}

  /** Wakes the pool; resolves to 0 (nothing is stored: the pool reads runnable branches from the store). */
  async enqueue(jobs: readonly BranchJob[]): Promise<number> {
    if (jobs.length > 0) this.pool.wake();
    return 0;
  }

  /** Nothing is queued outside the log: a queued branch is cancelled by its `cancel-request`. */
  async cancelQueued(_branchIds: readonly BranchId[]): Promise<number> {
    return 0;
  }

  async queuedBranches(): Promise<BranchId[]> {
    return [];
  }

  /** No jobs are stored: the log is the queue. */
  async branchesWithJobs(_branchIds: readonly BranchId[]): Promise<Set<BranchId>> {
    return new Set();
  }

  async listDeadLetters(_limit: number): Promise<DeadLetter[]> {
    return [];
  }

  /** No dead letters in the embedded mode. */
  async deadLetter(_id: string): Promise<DeadLetter | null> {
    return null;
  }

  async requeueDeadLetter(_id: string): Promise<RequeueResult | null> {
    return null;
  }

  async discardDeadLetter(_id: string): Promise<boolean> {
    return false;
  }

  async stats(): Promise<QueueStats> {
    return { queued: 0, active: this.pool.activeCount, failed: 0 };
  }

  /** Starts the pool's polling (the handler is the pool's own drive). */
  async work(_handler: BranchJobHandler, _options: WorkOptions): Promise<void> {
    this.pool.start();
  }

  async stop(): Promise<void> {
    await this.pool.stop();
  }
}
