import type { RunEvent } from "@/lib/domain/events";
import { asRunId } from "@/lib/domain/ids";
import { RUN_TRIAL_STATS_VERSION, runTrialStats, runTrialStatsSchema, type RunTrialStats } from "@/lib/domain/run-trial-stats";
import type { RunTrialStatsRow, StoredTrialStats } from "@/lib/db/experiment-store";
import type { RunStore } from "@/lib/db/store";
import { describePgError } from "@/lib/db/pg/describe-pg-error";

/**
 * The stored trial statistics of runs (table `run_trial_stats`, decision 0042): a read model of what
 * an experiment's trial rows take from a run's log (lib/domain/run-trial-stats.ts), kept per run
 * once its root branch has ended, so the CSV export of an experiment of any size reads one query per
 * page of runs instead of every log. An entry is served only while its key still holds — the run's
 * root branch, that branch's newest seq and {@link RUN_TRIAL_STATS_VERSION} — and its JSON parses;
 * anything else (a resumed run, an append, older rules, a damaged row) is recomputed from the log,
 * and saved again when the run has ended. Runs still going are always read from the log.
 *
 * Filled (1) when a worker's drive of a run's root branch returns because the run ended
 * ({@link storeTrialStatsOfEndedRun}, lib/server/worker-pool.ts) and (2) lazily by the export for
 * runs that ended before this read model existed or ended another way (a cancel with no worker).
 */

/** The stored stats when `row`'s key still holds and they parse, else null. */
export function validStoredStats(row: RunTrialStatsRow): RunTrialStats | null {
  const stored = row.stored;
  if (!stored || row.status !== "ended") return null;
  if (stored.version !== RUN_TRIAL_STATS_VERSION || stored.branchId !== row.rootBranchId || stored.lastSeq !== row.lastSeq) return null;
  const parsed = runTrialStatsSchema.safeParse(stored.stats);
  return parsed.success ? parsed.data : null;
}

/**
 * The entry to store for a run whose root branch had `row`'s status and newest seq when `events`
 * (its root-branch log) were read; null unless it has ended and the log read is that log (no
 * append came in between).
 */
function entryToSave(row: RunTrialStatsRow, events: readonly RunEvent[], stats: RunTrialStats): StoredTrialStats | null {
  if (row.status !== "ended" || events.at(-1)?.seq !== row.lastSeq) return null;
  return { runId: row.runId, branchId: row.rootBranchId, lastSeq: row.lastSeq, version: RUN_TRIAL_STATS_VERSION, stats };
}

/**
 * The trial stats of a page of runs, by run id: stored ones where valid (one query for the page),
 * the others folded from `events(runId)` (their root-branch log); those of ended runs are then
 * saved (one write for the page). A run the store does not know gets the stats of `events` too.
 * @throws whatever the store or `events` throws (nothing is saved for the page then).
 */
export async function trialStatsOfRuns(store: RunStore, runIds: readonly string[], events: (runId: string) => Promise<readonly RunEvent[]>): Promise<Map<string, RunTrialStats>> {
  const rows = new Map((await store.experiments.trialStatsOfRuns(runIds)).map((row) => [row.runId, row]));
  const stats = new Map<string, RunTrialStats>();
  const toSave: StoredTrialStats[] = [];
  for (const runId of runIds) {
    const row = rows.get(runId);
    const stored = row ? validStoredStats(row) : null;
    if (stored) {
      stats.set(runId, stored);
      continue;
    }
    const log = await events(runId);
    const computed = runTrialStats(log);
    stats.set(runId, computed);
    const entry = row ? entryToSave(row, log, computed) : null;
    if (entry) toSave.push(entry);
  }
  await store.experiments.saveTrialStats(toSave);
  return stats;
}

/**
 * Stores a run's trial stats when its root branch has ended (called where a worker learns a drive
 * ended the run); returns whether it stored them. Does nothing for a branch other than the root.
 * @throws whatever the store throws (the caller logs it: the export recomputes missing stats).
 */
export async function saveEndedRunTrialStats(store: RunStore, runId: string, branchId: string): Promise<boolean> {
  const run = await store.getRun(asRunId(runId));
  if (!run || run.rootBranchId !== branchId) return false;
  const [row] = await store.experiments.trialStatsOfRuns([runId]);
  if (!row) return false;
  const log = await store.list(run.id, run.rootBranchId);
  const entry = entryToSave(row, log, runTrialStats(log));
  if (entry) await store.experiments.saveTrialStats([entry]);
  return entry !== null;
}

/**
 * {@link saveEndedRunTrialStats} for a worker whose drive just ended the run: a failure is logged,
 * never thrown (the drive's result stands; the next export reads that run's log and stores its stats).
 */
export async function storeTrialStatsOfEndedRun(store: RunStore, runId: string, branchId: string): Promise<void> {
  try {
    await saveEndedRunTrialStats(store, runId, branchId);
  } catch (error) {
    console.error(`[run ${runId}] storing its trial stats failed (the export will read its log instead): ${describePgError(error)}`);
  }
}
