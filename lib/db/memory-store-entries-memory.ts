import type { MemoryEntry, MemoryStoreInfo } from "@/lib/domain/memory-store";
import type { MemoryEntryQuery, MemoryStoreRepository } from "./memory-store-entries";

/** The in-memory {@link MemoryStoreRepository} (tests, contexts on a `MemoryRunStore`). */
export class MemoryMemoryStoreRepository implements MemoryStoreRepository {
  private readonly stores = new Map<string, { retentionDays: number; createdAt: string }>();
  private entries: MemoryEntry[] = [];

  async listStores(now: string): Promise<MemoryStoreInfo[]> {
    return [...this.stores.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, store]) => {
        const live = this.entries.filter((entry) => entry.store === name && entry.expiresAt > now);
        return { name, ...store, entryCount: live.length, taskCount: new Set(live.map((entry) => `${entry.environment}\0${entry.taskId}`)).size };
      });
  }

  async putStore(input: { name: string; retentionDays: number; createdAt: string }): Promise<void> {
    const existing = this.stores.get(input.name);
    this.stores.set(input.name, { retentionDays: input.retentionDays, createdAt: existing?.createdAt ?? input.createdAt });
  }

  async retentionOf(name: string): Promise<number | null> {
    return this.stores.get(name)?.retentionDays ?? null;
  }

  async addEntries(entries: readonly MemoryEntry[]): Promise<number> {
    // All or nothing, as the SQL adapters' single statement or transaction.
    const unknown = entries.find((entry) => !this.stores.has(entry.store));
    if (unknown) throw new Error(`no memory store ${unknown.store}`);
    let added = 0;
    for (const entry of entries) {
      if (this.entries.some((e) => e.store === entry.store && e.source.eventId === entry.source.eventId)) continue;
      this.entries.push(structuredClone(entry));
      added += 1;
    }
    return added;
  }

  async entriesFor(query: MemoryEntryQuery): Promise<MemoryEntry[]> {
    return this.entries
      .filter(
        (e) =>
          e.store === query.store &&
          (query.environment === undefined || e.environment === query.environment) &&
          (query.taskId === undefined || e.taskId === query.taskId) &&
          e.expiresAt > query.now,
      )
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
      .slice(0, query.limit)
      .map((e) => structuredClone(e));
  }

  async deleteEntries(ids: readonly string[]): Promise<number> {
    const gone = new Set(ids);
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => !gone.has(entry.id));
    return before - this.entries.length;
  }

  async deleteExpired(now: string): Promise<number> {
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => entry.expiresAt > now);
    return before - this.entries.length;
  }
}
