import { EventEmitter } from "node:events";
import type { RunEvent } from "@/lib/domain/events";
import type { LiveCallMessage } from "@/lib/domain/live-call";

/**
 * In-process pub/sub of appended events, so SSE streams see them at once, and
 * of transient live-call messages (a call started, token deltas, a call ended),
 * which are never stored. Events written by another process (the CLI, another
 * worker) are picked up by the streams' polling instead; the log in the
 * database stays the single source of truth. Token deltas of calls driven by
 * another process do not cross over (that process has its own bus).
 */
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

  /** Publishes a transient live-call message of a run (not stored). */
  publishLive(runId: string, message: LiveCallMessage): void {
    this.emitter.emit(`live:${runId}`, message);
  }

  /** Calls `listener` with each live-call message of `runId`; returns the unsubscribe function. */
  subscribeLive(runId: string, listener: (message: LiveCallMessage) => void): () => void {
    const key = `live:${runId}`;
    this.emitter.on(key, listener);
    return () => this.emitter.off(key, listener);
  }
}
