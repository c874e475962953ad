import type { OptimisationLease, OptimisationRecord } from "@/lib/domain/optimiser/types";

/** What a lease claim gave: the lease now held, or the other holder's unexpired lease. */
export type OptimisationLeaseClaim = { claimed: true; lease: OptimisationLease } | { claimed: false; holder: OptimisationLease };

/**
 * Storage of reflective optimisations (lib/domain/optimiser/types.ts; table `optimisations`,
 * SQLite migrations 0011–0012, PostgreSQL 0006–0007). A record is written whole at every boundary of the
 * optimisation (after each proposal and each evaluation), so what was done survives a restart.
 * Adapters: in-memory (./optimisation-store-memory.ts), SQLite (./optimisation-store-sqlite.ts),
 * PostgreSQL (./pg/pg-optimisations.ts); one contract (tests/optimiser/optimisation-store-contract.ts).
 */
export interface OptimisationStore {
  /**
   * Stores a new record.
   * @throws AppError("conflict") when its id is taken.
   */
  createOptimisation(record: OptimisationRecord): Promise<void>;
  /**
   * Claims (or renews) the lease of an optimisation for `owner` until `now + ttlMs`, atomically: it
   * succeeds only when no lease is held, `owner` holds it already, or the holder's lease expired.
   * @throws AppError("not-found") for an unknown id.
   */
  claimOptimisationLease(id: string, owner: string, ttlMs: number, now?: number): Promise<OptimisationLeaseClaim>;
  /** Drops the lease when `owner` holds it (another holder's lease is left alone). */
  releaseOptimisationLease(id: string, owner: string): Promise<void>;
  /**
   * Replaces a stored record (same id); its `lease` field is ignored (see {@link claimOptimisationLease}).
   * @throws AppError("not-found") for an unknown id.
   */
  saveOptimisation(record: OptimisationRecord): Promise<void>;
  /** The record with its current lease (`lease` present only while one is stored). */
  getOptimisation(id: string): Promise<OptimisationRecord | null>;
  /** Records whose candidates are saved in `targetTemplateId` (every record without it), newest first. */
  listOptimisations(filter?: { targetTemplateId?: string }): Promise<OptimisationRecord[]>;
}

/** Newest first, then id: the order of {@link OptimisationStore.listOptimisations}. */
export function compareOptimisations(a: OptimisationRecord, b: OptimisationRecord): number {
  return b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
}
