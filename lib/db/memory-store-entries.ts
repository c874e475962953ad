import type { MemoryEntry, MemoryStoreInfo } from "@/lib/domain/memory-store";

/**
 * Storage of named memory stores and their entries (lib/domain/memory-store.ts).
 * Not to be confused with ./memory-store.ts, the in-memory
 * RunStore. Adapters: SQLite (./memory-store-entries-sqlite.ts), in-memory
 * (./memory-store-entries-memory.ts) and PostgreSQL (./pg/pg-small-stores.ts); one contract
 * suite runs on all three (tests/memory-store/memory-entry-store-contract.ts). Every time
 * argument is ISO-8601 so tests inject a clock.
 */
export interface MemoryStoreRepository {
  /** Every store with its unexpired entry and task counts at `now`, by name. */
  listStores(now: string): Promise<MemoryStoreInfo[]>;
  /** Creates a store, or changes its retention when it exists (entries keep their expiry). */
  putStore(input: { name: string; retentionDays: number; createdAt: string }): Promise<void>;
  /** The store's retention in days, or null for an unknown store. */
  retentionOf(name: string): Promise<number | null>;
  /**
   * Adds entries; one whose (store, source event) exists already is skipped. Returns how many were added.
   * @throws when an entry names a store that does not exist; nothing of the batch is added.
   */
  addEntries(entries: readonly MemoryEntry[]): Promise<number>;
  /**
   * The store's unexpired entries at `now`, newest first (then id descending), at most `limit`:
   * one task's when `environment` and `taskId` are given; without `taskId` every task of the family,
   * without either every entry of the store (the memory export).
   */
  entriesFor(query: MemoryEntryQuery): Promise<MemoryEntry[]>;
  /** Deletes the entries with these ids (unknown ids are ignored); returns how many. */
  deleteEntries(ids: readonly string[]): Promise<number>;
  /** Deletes every entry expired at `now` (`expiresAt ≤ now`); returns how many. */
  deleteExpired(now: string): Promise<number>;
}

/** What {@link MemoryStoreRepository.entriesFor} reads: a store's entries, optionally of one family and one task. */
export interface MemoryEntryQuery {
  store: string;
  /** Only this family's entries (omitted: every family). */
  environment?: string;
  /** Only this task's entries (omitted: every task). */
  taskId?: string;
  /** ISO-8601: entries expired at this time are left out. */
  now: string;
  limit: number;
}
