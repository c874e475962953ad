import { setTimeout as sleep } from "node:timers/promises";
import type { BranchId, RunId } from "@/lib/domain/ids";
import type { CallActivity } from "@/lib/domain/status";
import { splitModelId } from "@/lib/domain/model-id";
import type { LeaseRecord, RunStore } from "@/lib/db/store";
import { driveRun, type CallInfo, type DriveResult, type EngineDeps } from "@/lib/engine/run-engine";
import { leaseStateOf, newLeaseOwner } from "./lease-owner";
import { runAs } from "@/lib/actors/actor-context";
import type { Actor } from "@/lib/domain/actor";
import type { RunEventBus } from "./run-event-bus";
import { TokenCoalescer } from "./token-coalescer";
import { describePgError } from "@/lib/db/pg/describe-pg-error";
import { storeTrialStatsOfEndedRun } from "./run-trial-stats";

/** Lease length in ms; renewed every {@link LEASE_RENEW_MS}. A branch whose lease lapses shows as interrupted until a worker takes it over. */
export const LEASE_TTL_MS = 15_000;
/** How often a worker renews the leases it holds, in ms. */
export const LEASE_RENEW_MS = 5_000;
/** Default global concurrency of a pool (`REFLEXION_CONCURRENCY`). */
export const DEFAULT_CONCURRENCY = 4;

/** Options of a {@link WorkerPool}. Times are ms. */
export interface WorkerPoolOptions {
  /** At most this many branches driven at once by this pool. Default {@link DEFAULT_CONCURRENCY}. */
  concurrency?: number;
  /** Per-provider caps (`{ openai: 2 }`): at most that many branches whose Actor uses the provider. */
  providerCaps?: Readonly<Record<string, number>>;
  /** How often the pool looks for queued work when nothing woke it. Default 500 ms. */
  pollMs?: number;
  /** How often a driven branch re-reads its summary for a `cancel-request` from another process. Default 250 ms. */
  intentPollMs?: number;
  leaseTtlMs?: number;
  renewMs?: number;
  /** Only claim branches of runs this accepts (e.g. `cli experiment run`: the experiment's own runs). Default: all. */
  accept?: (runId: RunId) => boolean;
  /** Called when this pool claims a branch and when its drive returns (with why). */
  onClaim?: (runId: RunId, branchId: BranchId) => void;
  onSettled?: (runId: RunId, branchId: BranchId, result: DriveResult | null) => void;
}

interface ActiveBranch {
  runId: RunId;
  provider: string;
  abort: AbortController;
  stopping: boolean;
  done: Promise<DriveResult | null>;
  call: CallActivity | null;
  /** The text of the call in flight published as deltas so far (for clients that connect mid-call). */
  callText: string;
}

/** The provider part of a model id (`openai:gpt-4o` → `openai`, `demo` → `demo`). */
export function providerOfModel(modelId: string | null): string {
  return modelId ? splitModelId(modelId).provider : "unknown";
}

/**
 * Parses `REFLEXION_PROVIDER_CONCURRENCY` (`openai=2,compatible=1`) into caps.
 * @throws Error naming the variable when an entry is not `provider=<positive integer>`.
 */
export function parseProviderCaps(value: string | undefined): Record<string, number> {
  const caps: Record<string, number> = {};
  if (!value?.trim()) return caps;
  for (const entry of value.split(",")) {
    const [name, count] = entry.split("=").map((part) => part.trim());
    const n = Number(count);
    if (!name || !Number.isInteger(n) || n < 1) {
      throw new Error(`REFLEXION_PROVIDER_CONCURRENCY: "${entry.trim()}" is not provider=<positive integer> (e.g. openai=2,compatible=1).`);
    }
    caps[name] = n;
  }
  return caps;
}

/**
 * Executes queued and resumable branches from the store, so
 * scheduling goes through the store. The pool claims a branch by lease (so two processes never
 * drive the same branch), drives it with the engine, renews the lease while it
 * runs and releases it when the drive returns. A branch whose holder died
 * (SIGKILL, crash) is taken over once its lease has lapsed — at once when the
 * holder was a process on this host that no longer exists — and resumed from
 * its log, so nothing recorded is lost or done twice.
 *
 * Control goes through the log: pause and cancel are events appended by
 * whoever asks; the engine acts on them at its next boundary, and this pool
 * aborts the call in flight when it sees a `cancel-request` (published in this
 * process, or read from the store by polling).
 */
export class WorkerPool {
  /** Identifies this process in leases: `host:pid:random`. */
  readonly owner = newLeaseOwner();
  private readonly active = new Map<string, ActiveBranch>();
  /** Branch id → why its last drive here failed ({@link lastFailure}). */
  private readonly failures = new Map<string, string>();
  private readonly concurrency: number;
  private readonly options: Required<Omit<WorkerPoolOptions, "providerCaps" | "concurrency" | "onClaim" | "onSettled" | "accept">> &
    Pick<WorkerPoolOptions, "onClaim" | "onSettled" | "accept"> & { providerCaps: Readonly<Record<string, number>> };
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private claiming = false;
  private claimAgain = false;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];
  /** Most branches this pool ever drove at once (for tests and the bench). */
  maxObservedConcurrency = 0;

  constructor(
    private readonly store: RunStore,
    private readonly deps: EngineDeps,
    private readonly bus?: RunEventBus,
    options: WorkerPoolOptions = {},
  ) {
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.options = {
      providerCaps: options.providerCaps ?? {},
      pollMs: options.pollMs ?? 500,
      intentPollMs: options.intentPollMs ?? 250,
      leaseTtlMs: options.leaseTtlMs ?? LEASE_TTL_MS,
      renewMs: options.renewMs ?? LEASE_RENEW_MS,
      onClaim: options.onClaim,
      accept: options.accept,
      onSettled: options.onSettled,
    };
  }

  /** Starts claiming queued work: now, on every {@link wake}, and every `pollMs`. Idempotent. */
  start(): this {
    if (this.pollTimer || this.stopped) return this;
    this.pollTimer = setInterval(() => this.wake(), this.options.pollMs);
    this.pollTimer.unref?.();
    this.wake();
    return this;
  }

  /** Whether {@link start} was called (and {@link stop} not yet). */
  get started(): boolean {
    return this.pollTimer !== null;
  }

  /** Looks for queued work soon (after a run is created, resumed or forked in this process). No-op unless started. */
  wake(): void {
    if (this.pollTimer) void this.claimPass().catch((error: unknown) => console.error("[worker-pool] claim pass failed:", describePgError(error)));
  }

  /** Whether this pool is driving `branchId` now. */
  isActive(branchId: BranchId): boolean {
    return this.active.has(branchId);
  }

  /** Branches driven by this pool now. */
  get activeCount(): number {
    return this.active.size;
  }

  /** The model call this pool is waiting on for `branchId`, if any. */
  currentCall(branchId: BranchId): CallActivity | null {
    return this.active.get(branchId)?.call ?? null;
  }

  /** The call in flight for `branchId` with the text it has streamed so far, or null (calls driven here only). */
  liveCall(branchId: BranchId): { call: CallActivity; text: string } | null {
    const entry = this.active.get(branchId);
    return entry?.call ? { call: entry.call, text: entry.callText } : null;
  }

  /**
   * Claims `branchId` now, outside the queue order and the concurrency limit
   * (`cli run` drives the run it created; tests), and drives it in the
   * background. Resolves to false when a live worker holds it or it runs here already.
   */
  async drive(runId: RunId, branchId: BranchId): Promise<boolean> {
    if (this.active.has(branchId) || this.stopped) return false;
    return this.take(runId, branchId, await this.store.getLease(branchId));
  }

  /**
   * Why this pool's last drive of the branch failed (the event log could not be read or written:
   * the database's own message, e.g. `connect ECONNREFUSED 127.0.0.1:5432 (while: select from "events")`),
   * or null when no drive of it failed here. Kept for the job's failure message (one short string per failed branch).
   */
  lastFailure(branchId: BranchId): string | null {
    return this.failures.get(branchId) ?? null;
  }

  /** Resolves when this pool's current drive of the branch returns; null when it is not driving it. */
  async settled(branchId: BranchId): Promise<DriveResult | null> {
    return (await this.active.get(branchId)?.done) ?? null;
  }

  /**
   * Resolves when the branch is no longer running anywhere: its log says
   * paused, ended or error (polls the summary every `pollMs` ms while another
   * process drives it or it waits in the queue).
   */
  async untilSettled(branchId: BranchId, pollMs = 50): Promise<void> {
    for (;;) {
      const entry = this.active.get(branchId);
      if (entry) await entry.done;
      const summary = await this.store.getBranchSummary(branchId);
      if (!summary || summary.status !== "running") return;
      await sleep(pollMs);
    }
  }

  /** Resolves the next time this pool has nothing to drive and finds nothing it could claim. */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      if (this.pollTimer) this.wake();
      else void this.checkIdle();
    });
  }

  /**
   * Stops claiming, asks every driven branch to stop at its next boundary
   * (appending nothing: each stays runnable), waits for them and releases their leases.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    for (const entry of this.active.values()) entry.stopping = true;
    await Promise.all([...this.active.values()].map((entry) => entry.done));
  }

  private async claimPass(): Promise<void> {
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = true;
    try {
      do {
        this.claimAgain = false;
        if (this.stopped || this.active.size >= this.concurrency) break;
        const candidates = await this.store.listRunnableBranches(this.concurrency + this.active.size + (this.options.accept ? 512 : 64));
        for (const candidate of candidates) {
          if (this.stopped || this.active.size >= this.concurrency) break;
          if (this.active.has(candidate.branchId) || leaseStateOf(candidate.lease) === "live") continue;
          if (this.options.accept && !this.options.accept(candidate.runId)) continue;
          const provider = providerOfModel(candidate.summary.actorModelId);
          const cap = this.options.providerCaps[provider];
          if (cap !== undefined && this.countProvider(provider) >= cap) continue;
          await this.take(candidate.runId, candidate.branchId, candidate.lease);
        }
      } while (this.claimAgain);
    } finally {
      this.claiming = false;
    }
    await this.checkIdle();
  }

  private async checkIdle(): Promise<void> {
    if (this.idleWaiters.length === 0 || this.active.size > 0) return;
    const candidates = await this.store.listRunnableBranches(64);
    const claimable = candidates.some(
      (candidate) => leaseStateOf(candidate.lease) !== "live" && (this.options.accept?.(candidate.runId) ?? true),
    );
    if (claimable && !this.stopped && this.pollTimer) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private countProvider(provider: string): number {
    let n = 0;
    for (const entry of this.active.values()) if (entry.provider === provider) n += 1;
    return n;
  }

  /** Claims the branch's lease (clearing a dead holder's) and drives it; false when a live worker holds it. */
  private async take(runId: RunId, branchId: BranchId, lease: LeaseRecord | null): Promise<boolean> {
    if (lease && lease.owner !== this.owner && leaseStateOf(lease) === "dead") await this.store.releaseLease(branchId, lease.owner);
    if (!(await this.store.claimLease(branchId, this.owner, this.options.leaseTtlMs))) return false;
    if (this.active.has(branchId)) return false;
    const summary = await this.store.getBranchSummary(branchId);
    const ownerUserId = (await this.store.getRun(runId))?.ownerUserId ?? null;
    const entry: ActiveBranch = {
      runId,
      provider: providerOfModel(summary?.actorModelId ?? null),
      abort: new AbortController(),
      stopping: false,
      done: Promise.resolve(null),
      call: null,
      callText: "",
    };
    this.active.set(branchId, entry);
    this.maxObservedConcurrency = Math.max(this.maxObservedConcurrency, this.active.size);
    this.options.onClaim?.(runId, branchId);
    // The engine's events say who wrote them: this worker, on behalf of the run's owner (not whoever's request woke it).
    entry.done = runAs(this.actorFor(ownerUserId), () => this.run(runId, branchId, entry)).then((result) => {
      this.options.onSettled?.(runId, branchId, result);
      return result;
    });
    return true;
  }

  /** The actor a branch is driven as: `worker <lease owner's random part>` acting for the run's owner (null: none). */
  private actorFor(ownerUserId: string | null): Actor {
    return { kind: "worker", id: this.owner, name: `worker ${this.owner.split(":").at(-1) ?? this.owner}`, userId: ownerUserId };
  }

  private async run(runId: RunId, branchId: BranchId, entry: ActiveBranch): Promise<DriveResult | null> {
    const cleanups: Array<() => void> = [];
    const abortForCancel = () => {
      if (!entry.abort.signal.aborted) entry.abort.abort(new Error("cancel requested"));
    };
    // Another process may have taken the lease (we were thought dead): stop driving at once.
    const renew = setInterval(() => {
      void this.store
        .claimLease(branchId, this.owner, this.options.leaseTtlMs)
        .then((held) => {
          if (!held) {
            entry.stopping = true;
            abortForCancel();
          }
        })
        .catch(() => undefined);
    }, this.options.renewMs);
    renew.unref?.();
    cleanups.push(() => clearInterval(renew));
    // Cancel requests: from this process at once (bus), from others by polling the summary.
    if (this.bus) {
      cleanups.push(
        this.bus.subscribe(runId, (events) => {
          if (events.some((event) => event.branchId === branchId && event.type === "cancel-request")) abortForCancel();
        }),
      );
    }
    const intentPoll = setInterval(() => {
      void this.store
        .getBranchSummary(branchId)
        .then((summary) => {
          if (summary?.cancelRequested) abortForCancel();
        })
        .catch(() => undefined);
    }, this.options.intentPollMs);
    intentPoll.unref?.();
    cleanups.push(() => clearInterval(intentPoll));

    let coalescer: TokenCoalescer | null = null;
    const live = (kind: "call-start" | "token-delta" | "call-end", call: CallInfo, text?: string) => {
      const base = { branchId, role: call.role, trial: call.trial, step: call.step, startedAt: call.startedAt };
      this.bus?.publishLive(runId, kind === "token-delta" ? { kind, ...base, text: text ?? "" } : kind === "call-start" ? { kind, ...base } : { kind: "call-end", ...base });
    };
    this.failures.delete(branchId);
    try {
      const result = await driveRun(this.deps, {
        runId,
        branchId,
        signal: entry.abort.signal,
        stopRequested: () => entry.stopping,
        onEvents: (events) => this.bus?.publish(runId, events),
        onCall: {
          start: (call) => {
            entry.call = { ...call, retry: null };
            entry.callText = "";
            // What was published is what a client connecting now has missed (the buffer follows as deltas).
            coalescer = new TokenCoalescer((text) => {
              entry.callText += text;
              live("token-delta", call, text);
            });
            live("call-start", call);
            void this.store.setLeaseActivity(branchId, this.owner, entry.call).catch(() => undefined);
          },
          retry: (call, notice) => {
            const retry = { at: new Date(Date.now() + notice.delayMs).toISOString(), attempt: notice.attempt, message: notice.message };
            entry.call = { ...call, retry };
            this.bus?.publishLive(runId, { kind: "call-retry", branchId, role: call.role, trial: call.trial, step: call.step, startedAt: call.startedAt, retryAt: retry.at, attempt: retry.attempt, message: retry.message });
            void this.store.setLeaseActivity(branchId, this.owner, entry.call).catch(() => undefined);
          },
          delta: (_call, text) => coalescer?.push(text),
          end: (call) => {
            coalescer?.close();
            coalescer = null;
            entry.call = null;
            entry.callText = "";
            live("call-end", call);
            void this.store.setLeaseActivity(branchId, this.owner, null).catch(() => undefined);
          },
        },
      });
      if (result.stoppedBecause === "ended") await storeTrialStatsOfEndedRun(this.store, runId, branchId); // exports then need not read its log
      return result;
    } catch (error) {
      const why = describePgError(error);
      this.failures.set(branchId, why);
      console.error(`[run ${runId} branch ${branchId}] the event log failed: ${why}`);
      return null;
    } finally {
      for (const cleanup of cleanups) cleanup();
      this.active.delete(branchId);
      await this.store.releaseLease(branchId, this.owner).catch(() => undefined);
      // A slot is free: take the next queued branch.
      this.wake();
      void this.checkIdle().catch(() => undefined);
    }
  }
}
