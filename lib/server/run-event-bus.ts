import { EventEmitter } from "node:events";
import type { RunEvent } from "@/lib/domain/events";

/**
 * In-process pub/sub of appended events, so SSE streams see them at once.
 * Events written by another process (the CLI) are picked up by the streams'
 * polling instead; the log in the database stays the single source of truth.
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
}
