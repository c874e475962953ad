import { randomUUID } from "node:crypto";
import type { MemoryStoreRepository } from "@/lib/db/memory-store-entries";
import { DEFAULT_RETENTION_DAYS, distinctByText, expiryOf, normaliseMemoryText, memoryStoreNameSchema, retentionDaysSchema, type MemoryEntry, type MemoryStoreInfo } from "@/lib/domain/memory-store";
import type { MemoryPort } from "@/lib/engine/warm-start";

/** At most this many of a task's entries are read to deduplicate (a task's store rarely holds more). */
const SCAN_LIMIT = 1000;

/** How often expired entries are deleted while the process runs (ms). */
export const RETENTION_SWEEP_MS = 10 * 60_000;

/**
 * Named memory stores (lib/domain/memory-store.ts): the
 * settings list, the engine's {@link MemoryPort} (warm starts read, `writeMemory`
 * writes) and retention — expired entries are deleted when the service opens
 * and then every {@link RETENTION_SWEEP_MS} (and never returned in between:
 * reads filter by expiry). The clock is injected for tests.
 */
export class MemoryStoreService {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly repository: MemoryStoreRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Deletes expired entries now; returns how many. */
  async sweep(): Promise<number> {
    return this.repository.deleteExpired(this.now().toISOString());
  }

  /** Sweeps once and then on a timer that does not keep the process alive. */
  start(): void {
    void this.sweep().catch(() => undefined);
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), RETENTION_SWEEP_MS);
    this.timer.unref?.();
  }

  /** Stops the timer. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Every store with its unexpired entry and task counts. */
  async list(): Promise<MemoryStoreInfo[]> {
    return this.repository.listStores(this.now().toISOString());
  }

  /**
   * Creates a store or changes its retention (days; entries already written keep their expiry).
   * @throws ZodError naming the field for a bad name or retention.
   */
  async put(input: { name: string; retentionDays: number }): Promise<MemoryStoreInfo[]> {
    const name = memoryStoreNameSchema.parse(input.name);
    const retentionDays = retentionDaysSchema.parse(input.retentionDays);
    await this.repository.putStore({ name, retentionDays, createdAt: this.now().toISOString() });
    return this.list();
  }

  /** The task's unexpired entries, newest first, one per normalised text (the newest; older copies written before deduplication are skipped). */
  async entries(store: string, environment: string, taskId: string, limit = 50): Promise<MemoryEntry[]> {
    const all = await this.repository.entriesFor({ store, environment, taskId, now: this.now().toISOString(), limit: SCAN_LIMIT });
    return distinctByText(all).slice(0, limit);
  }

  /** The engine's port over the stores. */
  port(): MemoryPort {
    return {
      carryIn: async (query) =>
        (await this.entries(query.store, query.environment, query.taskId, query.limit)).map((entry) => ({
          entryId: entry.id,
          text: entry.text,
          source: entry.source,
          createdAt: entry.createdAt,
        })),
      storeNames: async () => (await this.list()).map((store) => store.name),
      remember: async (entry) => {
        let retention = await this.repository.retentionOf(entry.store);
        if (retention === null) {
          retention = DEFAULT_RETENTION_DAYS;
          await this.repository.putStore({ name: entry.store, retentionDays: retention, createdAt: this.now().toISOString() });
        }
        const createdAt = this.now().toISOString();
        const id = `me-${randomUUID()}`;
        const added = await this.repository.addEntries([{ id, ...entry, createdAt, expiresAt: expiryOf(createdAt, retention) }]);
        if (added === 0) return;
        // One entry per task and normalised text: the new one replaces older copies (e.g. from forks).
        const key = normaliseMemoryText(entry.text);
        const older = (await this.repository.entriesFor({ store: entry.store, environment: entry.environment, taskId: entry.taskId, now: createdAt, limit: SCAN_LIMIT }))
          .filter((existing) => existing.id !== id && normaliseMemoryText(existing.text) === key)
          .map((existing) => existing.id);
        await this.repository.deleteEntries(older);
      },
    };
  }
}
