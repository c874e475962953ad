import type { BranchId, RunId } from "@/lib/domain/ids";
import type { RunStore } from "@/lib/db/store";
import { driveRun, type DriveResult, type EngineDeps } from "@/lib/engine/run-engine";
import { leaseOwnerAlive, newLeaseOwner } from "./lease-owner";
import type { RunEventBus } from "./run-event-bus";

/** Lease length in ms; renewed every {@link LEASE_RENEW_MS}. A run whose lease lapses shows as interrupted. */
export const LEASE_TTL_MS = 15_000;
const LEASE_RENEW_MS = 5_000;

interface ActiveRun {
  pauseRequested: boolean;
  cancelRequested: boolean;
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

  /** Whether this process is driving `branchId` now. */
  isActive(branchId: BranchId): boolean {
    return this.active.has(branchId);
  }

  /**
   * Starts driving a branch of a run (the root branch by default) in the
   * background. Resolves to false when another live process holds the branch's
   * lease or it is already running here. A lease left by a dead process on this
   * host is taken over at once.
   */
  async start(runId: RunId, branchId?: BranchId): Promise<boolean> {
    const run = await this.store.getRun(runId);
    if (!run) return false;
    const branch = branchId ?? run.rootBranchId;
    if (this.active.has(branch)) return false;
    const holder = await this.store.leaseHolder(branch);
    if (holder && holder !== this.owner && !leaseOwnerAlive(holder)) await this.store.releaseLease(branch, holder);
    if (!(await this.store.claimLease(branch, this.owner, LEASE_TTL_MS))) return false;
    const entry: ActiveRun = { pauseRequested: false, cancelRequested: false, abort: new AbortController(), done: Promise.resolve(null) };
    this.active.set(branch, entry);
    const timer = setInterval(() => {
      void this.store.claimLease(branch, this.owner, LEASE_TTL_MS).catch(() => undefined);
    }, LEASE_RENEW_MS);
    timer.unref?.();
    entry.done = driveRun(this.deps, {
      runId,
      branchId: branch,
      pauseRequested: () => entry.pauseRequested,
      cancelRequested: () => entry.cancelRequested,
      signal: entry.abort.signal,
      onEvents: (events) => this.bus?.publish(runId, events),
    })
      .catch((error: unknown) => {
        console.error(`[run ${runId} branch ${branch}] the event log failed:`, error instanceof Error ? error.message : error);
        return null;
      })
      .finally(async () => {
        clearInterval(timer);
        this.active.delete(branch);
        await this.store.releaseLease(branch, this.owner).catch(() => undefined);
      });
    return true;
  }

  /** Asks a running branch to pause at its next boundary. Returns false if it is not running here. */
  requestPause(branchId: BranchId): boolean {
    const entry = this.active.get(branchId);
    if (!entry) return false;
    entry.pauseRequested = true;
    return true;
  }

  /** Asks a running branch to cancel at its next boundary. Returns false if it is not running here. */
  requestCancel(branchId: BranchId): boolean {
    const entry = this.active.get(branchId);
    if (!entry) return false;
    entry.cancelRequested = true;
    return true;
  }

  /** Resolves when the branch's current drive stops (paused, ended or errored); null if none runs here. */
  async settled(branchId: BranchId): Promise<DriveResult | null> {
    return (await this.active.get(branchId)?.done) ?? null;
  }

  /** Pauses every active branch and waits for them (graceful shutdown). */
  async stopAll(): Promise<void> {
    for (const entry of this.active.values()) entry.pauseRequested = true;
    await Promise.all([...this.active.values()].map((entry) => entry.done));
  }
}
