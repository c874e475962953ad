import type { RunId } from "@/lib/domain/ids";
import type { RunStore } from "@/lib/db/store";
import { driveRun, type DriveResult, type EngineDeps } from "@/lib/engine/run-engine";
import { leaseOwnerAlive, newLeaseOwner } from "./lease-owner";
import type { RunEventBus } from "./run-event-bus";

/** Lease length in ms; renewed every {@link LEASE_RENEW_MS}. A run whose lease lapses shows as interrupted. */
export const LEASE_TTL_MS = 15_000;
const LEASE_RENEW_MS = 5_000;

interface ActiveRun {
  pauseRequested: boolean;
  abort: AbortController;
  done: Promise<DriveResult | null>;
}

/**
 * Executes runs in this process: at most one driver per run, guarded by a
 * lease in the store so the web server and a CLI never drive the same run.
 */
export class RunExecutor {
  private readonly active = new Map<string, ActiveRun>();
  /** Identifies this process in leases: `host:pid:random`. */
  readonly owner = newLeaseOwner();

  constructor(
    private readonly store: RunStore,
    private readonly deps: EngineDeps,
    private readonly bus?: RunEventBus,
  ) {}

  isActive(runId: RunId): boolean {
    return this.active.has(runId);
  }

  /**
   * Starts driving `runId` in the background. Resolves to false when another
   * process holds the run's lease or it is already running here.
   */
  async start(runId: RunId): Promise<boolean> {
    if (this.active.has(runId)) return false;
    const run = await this.store.getRun(runId);
    if (!run) return false;
    const holder = await this.store.leaseHolder(runId);
    if (holder && holder !== this.owner && !leaseOwnerAlive(holder)) await this.store.releaseLease(runId, holder);
    if (!(await this.store.claimLease(runId, this.owner, LEASE_TTL_MS))) return false;
    const entry: ActiveRun = { pauseRequested: false, abort: new AbortController(), done: Promise.resolve(null) };
    this.active.set(runId, entry);
    const timer = setInterval(() => {
      void this.store.claimLease(runId, this.owner, LEASE_TTL_MS).catch(() => undefined);
    }, LEASE_RENEW_MS);
    timer.unref?.();
    entry.done = driveRun(this.deps, {
      runId,
      branchId: run.rootBranchId,
      pauseRequested: () => entry.pauseRequested,
      signal: entry.abort.signal,
      onEvents: (events) => this.bus?.publish(runId, events),
    })
      .catch((error: unknown) => {
        console.error(`[run ${runId}] the event log failed:`, error instanceof Error ? error.message : error);
        return null;
      })
      .finally(async () => {
        clearInterval(timer);
        this.active.delete(runId);
        await this.store.releaseLease(runId, this.owner).catch(() => undefined);
      });
    return true;
  }

  /** Asks a running run to pause at its next boundary. Returns false if it is not running here. */
  requestPause(runId: RunId): boolean {
    const entry = this.active.get(runId);
    if (!entry) return false;
    entry.pauseRequested = true;
    return true;
  }

  /** Resolves when the run's current drive stops (paused, ended or errored). */
  async settled(runId: RunId): Promise<DriveResult | null> {
    return (await this.active.get(runId)?.done) ?? null;
  }

  /** Pauses every active run and waits for them (graceful shutdown). */
  async stopAll(): Promise<void> {
    for (const entry of this.active.values()) entry.pauseRequested = true;
    await Promise.all([...this.active.values()].map((entry) => entry.done));
  }
}
