import type { PriceRow } from "@/lib/domain/prices";
import { comparePriceRows, type PriceStore } from "./price-store";

/** The in-memory {@link PriceStore} (tests, contexts on a `MemoryRunStore`); returns copies. */
export class MemoryPriceStore implements PriceStore {
  private readonly rows = new Map<string, PriceRow>();

  async listPrices(): Promise<PriceRow[]> {
    return [...this.rows.values()].sort(comparePriceRows).map((row) => ({ ...row }));
  }

  async addPrice(row: PriceRow): Promise<boolean> {
    if (this.rows.has(row.id)) return false;
    this.rows.set(row.id, { ...row });
    return true;
  }
}
