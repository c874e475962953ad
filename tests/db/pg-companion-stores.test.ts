import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgPriceStore } from "@/lib/db/pg/pg-small-stores";
import { PgTemplateStore } from "@/lib/db/pg/pg-templates";
import { templateStoreContract } from "../templates/template-store-contract";
import { sharedPglite } from "./pg-test-stores";

// The stores beside the run store, on PostgreSQL (PGlite): the template library's own contract,
// and the rules SQLite's triggers enforce. The price, grade and memory-entry stores' contracts run
// on PGlite in their own files (tests/costs/price-store.test.ts, tests/judge/grade-store.test.ts,
// tests/memory-store/memory-entry-store.test.ts).
const pglite = sharedPglite();
beforeAll(() => pglite.open(), 120_000);
afterAll(() => pglite.close());

/** A store on a freshly emptied database (emptied when it is first used). */
function fresh<T>(make: (db: ReturnType<typeof pglite.connection>["db"], ready: () => Promise<void>) => T): T {
  let emptied: Promise<void> | null = null;
  return make(pglite.connection().db, () => (emptied ??= pglite.makeStore().then(() => undefined)));
}

describe("PgTemplateStore (PGlite)", () => {
  templateStoreContract(() => fresh((db, ready) => new PgTemplateStore(db, ready)));

  it("refuses an UPDATE or DELETE of a version row (trigger)", async () => {
    const store = fresh((db, ready) => new PgTemplateStore(db, ready));
    await store.createTemplate({ id: "t1", name: "T", family: "qa", role: "reflector", strategy: null, builtIn: false, source: null, labels: {}, createdAt: "2026-01-01T00:00:00.000Z" });
    await store.addVersion({ templateId: "t1", parentId: null, text: "v1", message: "m", builtIn: false });
    const db = pglite.connection().db;
    await expect(db.execute(sql`UPDATE template_versions SET text = 'changed'`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/immutable/) } });
    await expect(db.execute(sql`DELETE FROM template_versions`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/immutable/) } });
    expect((await store.listVersions("t1")).map((v) => v.text)).toEqual(["v1"]);
  });
});

describe("PgPriceStore (PGlite)", () => {
  it("refuses an UPDATE or DELETE of a price row (trigger: history is kept)", async () => {
    const store = fresh((db, ready) => new PgPriceStore(db, ready));
    const row = { id: "pr-1", provider: "openai", model: "gpt-4o", inputUsdPerMTok: 2.5, outputUsdPerMTok: 10, cachedInputUsdPerMTok: null, enteredAt: "2026-02-01T00:00:00.000Z", note: "price page" };
    expect(await store.addPrice(row)).toBe(true);
    await expect(pglite.connection().db.execute(sql`UPDATE prices SET note = 'x'`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/history/) } });
    await expect(pglite.connection().db.execute(sql`DELETE FROM prices`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/history/) } });
    expect(await store.listPrices()).toEqual([row]);
  });
});
