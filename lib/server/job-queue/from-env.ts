import { isPostgresUrl } from "@/lib/db/pg/database-url";
import type { RunStore } from "@/lib/db/store";
import type { EngineDeps } from "@/lib/engine/run-engine";
import type { RunEventBus } from "../run-event-bus";
import { WorkerPool, type WorkerPoolOptions } from "../worker-pool";
import { InProcessJobQueue } from "./in-process-queue";
import { PgBossJobQueue, pgBossSettings } from "./pg-boss-queue";
import type { JobQueue } from "./port";
import { DEFAULT_RECONCILE_MS, QueueingWorkerPool } from "./queueing-pool";

/**
 * The worker pool and job queue of a process (issue 17 part 2): with
 * `REFLEXION_DATABASE_URL=postgres://…` a {@link QueueingWorkerPool} over the pg-boss queue on that
 * database (branches are driven by `cli worker` processes on any machine); otherwise the embedded
 * {@link WorkerPool} behind the {@link InProcessJobQueue} (unchanged behaviour).
 * `REFLEXION_JOB_RECONCILE_MS` (default 2000) sets how often a shared-mode process reconciles.
 * @throws Error naming the setting when a `REFLEXION_JOB_*` value is malformed.
 */
export function workersFromEnv(
  store: RunStore,
  deps: EngineDeps,
  bus: RunEventBus,
  options: WorkerPoolOptions,
  env: Record<string, string | undefined>,
): { workers: WorkerPool; jobs: JobQueue } {
  const url = env.REFLEXION_DATABASE_URL;
  if (!isPostgresUrl(url)) {
    const workers = new WorkerPool(store, deps, bus, options);
    return { workers, jobs: new InProcessJobQueue(workers) };
  }
  const reconcileMs = Number(env.REFLEXION_JOB_RECONCILE_MS?.trim() || DEFAULT_RECONCILE_MS);
  if (!Number.isInteger(reconcileMs) || reconcileMs < 100) throw new Error(`REFLEXION_JOB_RECONCILE_MS must be a whole number of ms ≥ 100 (got "${env.REFLEXION_JOB_RECONCILE_MS}").`);
  const jobs = new PgBossJobQueue(url, pgBossSettings(env));
  return { workers: new QueueingWorkerPool(store, deps, bus, options, jobs, reconcileMs), jobs };
}
