import type { PriceRow } from "@/lib/domain/prices";

/**
 * Storage of the price table (lib/llm/pricing.ts, docs/decisions/0024). Rows
 * are only ever added: an edit is a newer dated row for the same provider and
 * model, so the history stays and a past call's recorded price row can always be
 * looked up. The SQLite adapter's triggers refuse UPDATE and DELETE.
 * Adapters: SQLite (./price-store-sqlite.ts), in-memory (./price-store-memory.ts).
 */
export interface PriceStore {
  /** Every row, oldest `enteredAt` first. */
  listPrices(): Promise<PriceRow[]>;
  /** Adds a row; a row whose id exists already is left as it is (seeding is idempotent). Returns whether it was added. */
  addPrice(row: PriceRow): Promise<boolean>;
}

/** Sort order of {@link PriceStore.listPrices}: `enteredAt`, then provider, model, id. */
export function comparePriceRows(a: PriceRow, b: PriceRow): number {
  return a.enteredAt.localeCompare(b.enteredAt) || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model) || a.id.localeCompare(b.id);
}
