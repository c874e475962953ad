import { randomUUID } from "node:crypto";
import type { PriceStore } from "@/lib/db/price-store";
import type { ModelUsage } from "@/lib/domain/events";
import { splitModelId } from "@/lib/domain/model-id";
import type { CallPricer } from "@/lib/engine/ports";
import { newPriceSchema, PriceBook, seedPriceRows, type NewPrice, type PriceRow, type PricedCall } from "@/lib/llm/pricing";

/** How long a price snapshot is reused before the table is read again (ms): another process (the CLI) may have added a row. */
const SNAPSHOT_TTL_MS = 2_000;

/** The price table as the settings page and `cli prices list` show it: every row, and which one is in force per model now. */
export interface PriceTableView {
  /** Every row, oldest first (history kept). */
  rows: PriceRow[];
  /** Ids of the rows in force now (the newest per provider + model). */
  currentIds: string[];
}

/**
 * The editable price table (docs/decisions/0024): seeded from
 * lib/llm/pricing.ts on first use, edited by appending dated rows, and the
 * engine's {@link CallPricer} — every live call is priced at record time with
 * the row in force then, cached input tokens at the cached rate.
 */
export class PriceService {
  private snapshot: { book: PriceBook; rows: PriceRow[]; at: number } | null = null;
  private seeded: Promise<void> | null = null;

  constructor(
    private readonly store: PriceStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Adds the seed rows that are missing (idempotent; stable ids). */
  private ensureSeeded(): Promise<void> {
    this.seeded ??= (async () => {
      for (const row of seedPriceRows()) await this.store.addPrice(row);
    })();
    return this.seeded;
  }

  private async book(): Promise<{ book: PriceBook; rows: PriceRow[] }> {
    await this.ensureSeeded();
    const at = Date.now();
    if (this.snapshot && at - this.snapshot.at < SNAPSHOT_TTL_MS) return this.snapshot;
    const rows = await this.store.listPrices();
    this.snapshot = { book: new PriceBook(rows), rows, at };
    return this.snapshot;
  }

  /** Every row and the ones in force now. */
  async table(): Promise<PriceTableView> {
    const { rows } = await this.book();
    const current = new Map<string, PriceRow>();
    const now = this.now().toISOString();
    for (const row of rows) {
      if (row.enteredAt > now) continue;
      const key = `${row.provider}:${row.model}`;
      const held = current.get(key);
      if (!held || row.enteredAt > held.enteredAt || (row.enteredAt === held.enteredAt && row.id > held.id)) current.set(key, row);
    }
    return { rows, currentIds: [...current.values()].map((row) => row.id) };
  }

  /**
   * Adds a row dated now for `input.modelId` (the older rows stay as history);
   * calls from now on are priced with it.
   * @throws ZodError for bad input (the route turns it into a 400 naming the field).
   */
  async set(input: NewPrice): Promise<PriceRow> {
    const parsed = newPriceSchema.parse(input);
    await this.ensureSeeded();
    const { provider, model: rawModel } = splitModelId(parsed.modelId);
    const row: PriceRow = {
      id: `pr-${randomUUID()}`,
      provider,
      model: rawModel,
      inputUsdPerMTok: parsed.inputUsdPerMTok,
      outputUsdPerMTok: parsed.outputUsdPerMTok,
      cachedInputUsdPerMTok: parsed.cachedInputUsdPerMTok,
      enteredAt: this.now().toISOString(),
      note: parsed.note,
    };
    await this.store.addPrice(row);
    this.snapshot = null;
    return row;
  }

  /** Prices one call made at `at` (ISO-8601) with the row in force then. */
  async price(modelId: string, usage: ModelUsage, at: string): Promise<PricedCall> {
    const { book } = await this.book();
    return book.price(modelId, usage, at);
  }

  /** The engine's pricer over this table. */
  pricer(): CallPricer {
    return { price: (modelId, usage, at) => this.price(modelId, usage, at) };
  }
}
