import { expect, it } from "vitest";
import type { SpendingLimitStore } from "@/lib/db/spending-limit-store";
import type { SpendingLimit } from "@/lib/domain/spending-limits";

const limit = (overrides: Partial<SpendingLimit>): SpendingLimit => ({ scope: { kind: "lab" }, period: "month", usd: 100, tokens: null, updatedAt: "2026-12-01T09:00:00.000Z", updatedBy: "ada", ...overrides });

/**
 * The rules every {@link SpendingLimitStore} keeps (memory, SQLite, PostgreSQL): one limit per scope and
 * period (setting again replaces it), listed by scope key then period; removal says whether there was one;
 * the ledger adds calls up per account and UTC day, and sums from a day on, per account or for everyone.
 */
export function spendingLimitStoreContract(make: () => Promise<SpendingLimitStore>): void {
  it("keeps one limit per scope and period, replaces it on set, lists by scope key then period", async () => {
    const store = await make();
    expect(await store.listLimits()).toEqual([]);
    await store.setLimit(limit({ scope: { kind: "person", userId: "u-bob" }, period: "day", usd: null, tokens: 5000 }));
    await store.setLimit(limit({}));
    await store.setLimit(limit({ period: "day", usd: 10 }));
    await store.setLimit(limit({ usd: 250.5, updatedBy: "grace", updatedAt: "2026-12-02T10:00:00.000Z" }));
    expect(await store.listLimits()).toEqual([
      limit({ period: "day", usd: 10 }),
      limit({ usd: 250.5, updatedBy: "grace", updatedAt: "2026-12-02T10:00:00.000Z" }),
      limit({ scope: { kind: "person", userId: "u-bob" }, period: "day", usd: null, tokens: 5000 }),
    ]);
  });

  it("removes a limit and says whether there was one", async () => {
    const store = await make();
    await store.setLimit(limit({ scope: { kind: "each-person" }, period: "day", usd: null, tokens: 1000 }));
    expect(await store.removeLimit({ kind: "each-person" }, "month")).toBe(false);
    expect(await store.removeLimit({ kind: "each-person" }, "day")).toBe(true);
    expect(await store.removeLimit({ kind: "each-person" }, "day")).toBe(false);
    expect(await store.listLimits()).toEqual([]);
  });

  it("adds calls up per account and day, and sums from a day on per account or for everyone", async () => {
    const store = await make();
    await store.addSpend("u-ada", "2026-11-30", { usd: 1, tokens: 100, calls: 1 });
    await store.addSpend("u-ada", "2026-12-01", { usd: 0.25, tokens: 110, calls: 1 });
    await store.addSpend("u-ada", "2026-12-01", { usd: 0.5, tokens: 220, calls: 2 });
    await store.addSpend("u-bob", "2026-12-03", { usd: 2, tokens: 1000, calls: 4 });
    await store.addSpend("", "2026-12-04", { usd: 0, tokens: 7, calls: 1 });
    expect(await store.spentSince("u-ada", "2026-12-01")).toEqual({ usd: 0.75, tokens: 330, calls: 3 });
    expect(await store.spentSince("u-ada", "2026-11-01")).toEqual({ usd: 1.75, tokens: 430, calls: 4 });
    expect(await store.spentSince("u-bob", "2026-12-04")).toEqual({ usd: 0, tokens: 0, calls: 0 });
    expect(await store.spentSince("", "2026-12-01")).toEqual({ usd: 0, tokens: 7, calls: 1 });
    expect(await store.spentSince(null, "2026-12-01")).toEqual({ usd: 2.75, tokens: 1337, calls: 8 });
  });

  it("loses no call when many are added at once", async () => {
    const store = await make();
    await Promise.all(Array.from({ length: 40 }, () => store.addSpend("u-ada", "2026-12-05", { usd: 0.01, tokens: 11, calls: 1 })));
    const spent = await store.spentSince("u-ada", "2026-12-05");
    expect(spent.calls).toBe(40);
    expect(spent.tokens).toBe(440);
    expect(spent.usd).toBeCloseTo(0.4, 10);
  });
}
