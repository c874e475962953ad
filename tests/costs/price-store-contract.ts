import { expect, it } from "vitest";
import type { PriceStore } from "@/lib/db/price-store";
import type { PriceRow } from "@/lib/domain/prices";

/** A valid price row; `overrides` replace fields. */
export function makePriceRow(overrides: Partial<PriceRow> = {}): PriceRow {
  return {
    id: "pr-1",
    provider: "openai",
    model: "gpt-4o",
    inputUsdPerMTok: 2.5,
    outputUsdPerMTok: 10,
    cachedInputUsdPerMTok: 1.25,
    enteredAt: "2026-02-01T00:00:00.000Z",
    note: "price page",
    ...overrides,
  };
}

/**
 * The rules every {@link PriceStore} keeps (memory, SQLite, PostgreSQL): rows are only added,
 * an id is stored once (seeding twice changes nothing), and the list is oldest first.
 * `make` hands out an empty store.
 */
export function priceStoreContract(make: () => Promise<PriceStore>): void {
  it("starts empty, adds a row and reads it back exactly (null cached price, fractional prices, note)", async () => {
    const store = await make();
    expect(await store.listPrices()).toEqual([]);
    const row = makePriceRow({ inputUsdPerMTok: 0.075, outputUsdPerMTok: 0.3, cachedInputUsdPerMTok: null, note: "Gemini 1.5 Flash, ≤128k prompt" });
    expect(await store.addPrice(row)).toBe(true);
    expect(await store.listPrices()).toEqual([row]);
  });

  it("leaves a row whose id exists as it was and says it added nothing", async () => {
    const store = await make();
    const row = makePriceRow();
    await store.addPrice(row);
    expect(await store.addPrice({ ...row, inputUsdPerMTok: 99, note: "changed" })).toBe(false);
    expect(await store.listPrices()).toEqual([row]);
  });

  it("keeps every dated row of a model (an edit appends; history stays)", async () => {
    const store = await make();
    const old = makePriceRow({ id: "pr-old", enteredAt: "2026-01-01T00:00:00.000Z", inputUsdPerMTok: 5 });
    const current = makePriceRow({ id: "pr-new", enteredAt: "2026-03-01T00:00:00.000Z", inputUsdPerMTok: 2.5 });
    await store.addPrice(current);
    await store.addPrice(old);
    expect((await store.listPrices()).map((row) => [row.id, row.inputUsdPerMTok])).toEqual([
      ["pr-old", 5],
      ["pr-new", 2.5],
    ]);
  });

  it("lists oldest enteredAt first, then provider, model and id", async () => {
    const store = await make();
    const at = "2026-02-01T00:00:00.000Z";
    const rows = [
      makePriceRow({ id: "c", provider: "openai", model: "gpt-4o", enteredAt: at }),
      makePriceRow({ id: "b", provider: "openai", model: "gpt-4o", enteredAt: at }),
      makePriceRow({ id: "a", provider: "openai", model: "o3", enteredAt: at }),
      makePriceRow({ id: "z", provider: "anthropic", model: "claude-sonnet-4", enteredAt: at }),
      makePriceRow({ id: "y", provider: "openai", model: "gpt-4o", enteredAt: "2026-01-15T00:00:00.000Z" }),
      makePriceRow({ id: "x", provider: "compatible", model: "*", enteredAt: "2026-03-01T00:00:00.000Z" }),
    ];
    for (const row of rows) expect(await store.addPrice(row)).toBe(true);
    expect((await store.listPrices()).map((row) => row.id)).toEqual(["y", "z", "b", "c", "a", "x"]);
  });

  it("hands out copies: changing a listed row does not change the store", async () => {
    const store = await make();
    const row = makePriceRow();
    await store.addPrice(row);
    const [listed] = await store.listPrices();
    if (listed) listed.inputUsdPerMTok = 0;
    row.note = "changed after adding";
    expect((await store.listPrices())[0]).toMatchObject({ inputUsdPerMTok: 2.5, note: "price page" });
  });
}
