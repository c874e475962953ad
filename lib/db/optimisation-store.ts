import type { OptimisationRecord } from "@/lib/domain/optimiser/types";

/**
 * Storage of reflective optimisations (lib/domain/optimiser/types.ts; table `optimisations`,
 * SQLite migration 0011, PostgreSQL 0006). A record is written whole at every boundary of the
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
   * Replaces a stored record (same id).
   * @throws AppError("not-found") for an unknown id.
   */
  saveOptimisation(record: OptimisationRecord): Promise<void>;
  getOptimisation(id: string): Promise<OptimisationRecord | null>;
  /** Records whose candidates are saved in `targetTemplateId` (every record without it), newest first. */
  listOptimisations(filter?: { targetTemplateId?: string }): Promise<OptimisationRecord[]>;
}

/** Newest first, then id: the order of {@link OptimisationStore.listOptimisations}. */
export function compareOptimisations(a: OptimisationRecord, b: OptimisationRecord): number {
  return b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
}
