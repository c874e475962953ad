import { EventEmitter } from "node:events";

/** How often a watched class's version is re-read from the store, ms (catches writes of other processes and app servers). */
export const CLASS_POLL_MS = 500;

/**
 * The fan-out of class versions (docs/decisions/0043-class-sessions.md): a class's SSE streams
 * learn its new `version` at once when this process wrote it ({@link publish}), and within
 * {@link CLASS_POLL_MS} when another process did (the CLI's `class end`, another app server in
 * shared mode): one poller per watched class per process, however many phones watch it, reading
 * one indexed row. Only numbers travel; clients refetch their own view.
 */
export class ClassVersionHub {
  private readonly emitter = new EventEmitter();
  private readonly pollers = new Map<string, { timer: ReturnType<typeof setInterval>; last: number; busy: boolean }>();

  /**
   * @param readVersion the class's stored version, or null when it is gone.
   * @param pollMs the poll interval, ms (tests shorten it).
   */
  constructor(
    private readonly readVersion: (classId: string) => Promise<number | null>,
    private readonly pollMs = CLASS_POLL_MS,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Tells this process's watchers of `classId` its version is now `version` (a write here). */
  publish(classId: string, version: number): void {
    const poller = this.pollers.get(classId);
    if (poller) {
      if (version <= poller.last) return;
      poller.last = version;
    }
    this.emitter.emit(classId, version);
  }

  /**
   * Calls `listener` with each new version of `classId` (written here, or seen by the poller);
   * returns the unsubscribe function. The poller stops with the last subscriber.
   */
  subscribe(classId: string, listener: (version: number) => void): () => void {
    this.emitter.on(classId, listener);
    if (!this.pollers.has(classId)) {
      const poller = { timer: setInterval(() => void this.poll(classId), this.pollMs), last: -1, busy: false };
      poller.timer.unref?.();
      this.pollers.set(classId, poller);
    }
    return () => {
      this.emitter.off(classId, listener);
      if (this.emitter.listenerCount(classId) > 0) return;
      const poller = this.pollers.get(classId);
      if (poller) clearInterval(poller.timer);
      this.pollers.delete(classId);
    };
  }

  /** Classes watched by at least one stream in this process. */
  watchedClasses(): string[] {
    return [...this.pollers.keys()];
  }

  private async poll(classId: string): Promise<void> {
    const poller = this.pollers.get(classId);
    if (!poller || poller.busy) return;
    poller.busy = true;
    try {
      const version = await this.readVersion(classId);
      if (version !== null && version > poller.last) {
        poller.last = version;
        this.emitter.emit(classId, version);
      }
    } catch (error) {
      console.error(`[classes] could not read class ${classId}'s version: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      poller.busy = false;
    }
  }
}
