import { EventEmitter } from "node:events";
import type { RunEvent } from "@/lib/domain/events";
import type { LiveCallMessage } from "@/lib/domain/live-call";

/**
 * In-process pub/sub of appended events, so SSE streams see them at once, and
 * of transient live-call messages (a call started, token deltas, a call ended),
 * which are never stored. Events written by another process (the CLI, another
 * worker) are picked up by the streams' polling instead — and, on PostgreSQL, at
 * once through LISTEN/NOTIFY (lib/server/pg-notify-bus.ts publishes them here);
 * the log in the database stays the single source of truth. Token deltas of
 * calls driven by another process cross over only on PostgreSQL (the same fan-out).
 */
const TAP_KEY = "live-tap";

export class RunEventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(runId: string, events: readonly RunEvent[]): void {
    if (events.length > 0) this.emitter.emit(runId, events);
  }

  /** Calls `listener` with each batch appended to `runId`; returns the unsubscribe function. */
  subscribe(runId: string, listener: (events: readonly RunEvent[]) => void): () => void {
    this.emitter.on(runId, listener);
    return () => this.emitter.off(runId, listener);
  }

  /** Publishes a transient live-call message of a run (not stored); taps ({@link tapLive}) see it too. */
  publishLive(runId: string, message: LiveCallMessage): void {
    this.emitter.emit(`live:${runId}`, message);
    this.emitter.emit(TAP_KEY, runId, message);
  }

  /**
   * Calls `listener` with every live-call message published here, of any run (the PostgreSQL
   * fan-out relays them to other app servers: lib/server/pg-notify-bus.ts); returns the unsubscribe function.
   */
  tapLive(listener: (runId: string, message: LiveCallMessage) => void): () => void {
    this.emitter.on(TAP_KEY, listener);
    return () => this.emitter.off(TAP_KEY, listener);
  }

  /** Hands a live-call message that came from another process to this process's subscribers (not to the taps: no echo). */
  deliverLive(runId: string, message: LiveCallMessage): void {
    this.emitter.emit(`live:${runId}`, message);
  }

  /** Runs whose live-call messages someone here listens to (SSE streams): the PostgreSQL fan-out asks workers for their token deltas. */
  liveWatchedRuns(): string[] {
    const runs: string[] = [];
    for (const name of this.emitter.eventNames()) {
      if (typeof name === "string" && name.startsWith("live:") && this.emitter.listenerCount(name) > 0) runs.push(name.slice("live:".length));
    }
    return runs;
  }

  /** True when something here listens to the run's events (an SSE stream, a follower, a driver). */
  hasSubscribers(runId: string): boolean {
    return this.emitter.listenerCount(runId) > 0;
  }

  /** Calls `listener` with each live-call message of `runId`; returns the unsubscribe function. */
  subscribeLive(runId: string, listener: (message: LiveCallMessage) => void): () => void {
    const key = `live:${runId}`;
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }
}
