import { isPostgresUrl } from "@/lib/db/pg/database-url";
import type { RunStore } from "@/lib/db/store";
import type { EngineDeps } from "@/lib/engine/run-engine";
import type { RunEventBus } from "../run-event-bus";
import { WorkerPool, type WorkerPoolOptions } from "../worker-pool";
import { InProcessJobQueue } from "./in-process-queue";
import { PgBossJobQueue, pgBossSettings } from "./pg-boss-queue";
import type { JobQueue } from "./port";
import { DEFAULT_RECONCILE_MS, QueueingWorkerPool } from "./queueing-pool";

/** How often a shared-mode worker re-reads a driven branch's summary for a cancel request it may have missed, ms. */
export const SHARED_INTENT_POLL_MS = 1_000;

/**
 * The worker pool and job queue of a process: with
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
  // A cancel or pause request appended by another process reaches this one's bus at once through the
  // LISTEN fan-out (lib/server/pg-notify-bus.ts); polling each driven branch's summary is only the
  // backstop for a missed notification, so once a second rather than the embedded pool's 250 ms.
  return { workers: new QueueingWorkerPool(store, deps, bus, { intentPollMs: SHARED_INTENT_POLL_MS, ...options }, jobs, reconcileMs), jobs };
}
