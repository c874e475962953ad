import { AdaptiveController, FULL, type AdaptiveCeilings, type AdaptiveSnapshot, type CallOutcome } from "./adaptive-controller";

/** Where {@link processAdaptiveGate} lives on `globalThis`. */
const GATE_KEY = Symbol.for("reflexion.adaptive-gate");

/**
 * The waiting side of the adaptive limits: one {@link AdaptiveController} per limiter key in this
 * process, and calls held until their key's controller lets them start. Each process adapts on its
 * own (decision 0042 (c)): in shared mode several workers' AIMD controllers on one key
 * converge to fair shares of what the provider allows, as AIMD flows do, while the configured
 * ceilings and every 429's block stay shared through PostgreSQL (call-limiter.ts).
 */
export class AdaptiveGate {
  private readonly controllers = new Map<string, { controller: AdaptiveController; modelId: string }>();
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Waits until a call on `key` may start under its adaptive limit (`ceilings` from the configured
   * limits of `modelId`, read the first time the key is seen), then counts it as started.
   * Resolves to the start time (epoch ms) to pass to {@link finish}.
   * Rejects with the signal's reason when `signal` aborts while waiting.
   */
  async acquire(key: string, modelId: string, ceilings: AdaptiveCeilings, signal?: AbortSignal): Promise<number> {
    const { controller } = this.entry(key, modelId, ceilings);
    for (;;) {
      signal?.throwIfAborted();
      const now = this.now();
      const wait = controller.waitMs(now);
      if (wait <= 0) {
        controller.start(now);
        return now;
      }
      await this.sleep(key, wait === FULL ? null : wait, signal);
    }
  }

  /** Records the outcome of a call on `key` that started at `startedAt` (from {@link acquire}) and wakes the calls waiting on it. */
  finish(key: string, outcome: CallOutcome, startedAt: number): void {
    const entry = this.controllers.get(key);
    if (!entry) return;
    entry.controller.finish(outcome, startedAt, this.now());
    const waiting = this.waiters.get(key);
    if (waiting) for (const wake of [...waiting]) wake();
  }

  /** Every key's adaptive limit now, with its provider + model. */
  snapshots(): Array<{ key: string; modelId: string; state: AdaptiveSnapshot }> {
    const now = this.now();
    return [...this.controllers.entries()].map(([key, { controller, modelId }]) => ({ key, modelId, state: controller.snapshot(now) }));
  }

  private entry(key: string, modelId: string, ceilings: AdaptiveCeilings) {
    let entry = this.controllers.get(key);
    if (!entry) {
      entry = { controller: new AdaptiveController(ceilings), modelId };
      this.controllers.set(key, entry);
    }
    return entry;
  }

  /** Sleeps `ms` (null: until a call on `key` ends), waking early when one ends. */
  private sleep(key: string, ms: number | null, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiters.get(key) ?? new Set<() => void>();
      this.waiters.set(key, waiting);
      const done = () => {
        if (timer) clearTimeout(timer);
        waiting.delete(done);
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      };
      // A paced wait wakes on time; a call ending may free a slot in flight (or end a pause early: no harm, it looks again).
      const timer = ms === null ? null : setTimeout(done, Math.max(1, Math.ceil(ms)));
      waiting.add(done);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}

/**
 * The gate of this process (one per process: every model port of it shares what it learnt). Kept on
 * `globalThis` under a registered symbol, so a production build that bundles this module into
 * several chunks (the route that reads it, the context that calls models) still has one.
 */
export const processAdaptiveGate: AdaptiveGate = ((globalThis as { [GATE_KEY]?: AdaptiveGate })[GATE_KEY] ??= new AdaptiveGate());
