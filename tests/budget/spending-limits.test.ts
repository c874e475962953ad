import { describe, expect, it } from "vitest";
import { bindingLimits, limitReached, periodStart, scopeKey, scopeOfKey, spendingLimitMessage, type SpendingLimit } from "@/lib/domain/spending-limits";

const limit = (overrides: Partial<SpendingLimit>): SpendingLimit => ({ scope: { kind: "lab" }, period: "month", usd: null, tokens: null, updatedAt: "2026-12-01T00:00:00.000Z", updatedBy: null, ...overrides });

describe("budgets per person and per lab: the rules", () => {
  it("starts a period at the UTC day or the first of the UTC month", () => {
    expect(periodStart("day", new Date("2026-12-05T23:59:59.999Z"))).toBe("2026-12-05");
    expect(periodStart("month", new Date("2026-12-05T23:59:59.999Z"))).toBe("2026-12-01");
    // 00:30 in Berlin on 1 January is still 31 December in UTC.
    expect(periodStart("month", new Date("2026-12-31T23:30:00.000+00:00"))).toBe("2026-12-01");
    expect(periodStart("day", new Date("2027-01-01T00:30:00.000+01:00"))).toBe("2026-12-31");
  });

  it("binds the lab's limits, the owner's own, and each-person only for periods the owner has none of", () => {
    const lab = limit({ usd: 100 });
    const eachDay = limit({ scope: { kind: "each-person" }, period: "day", usd: 5 });
    const eachMonth = limit({ scope: { kind: "each-person" }, period: "month", usd: 50 });
    const adaDay = limit({ scope: { kind: "person", userId: "ada" }, period: "day", usd: 20 });
    const all = [lab, eachDay, eachMonth, adaDay];
    expect(bindingLimits(all, "ada")).toEqual([adaDay, eachMonth, lab]);
    expect(bindingLimits(all, "bob")).toEqual([eachDay, eachMonth, lab]);
    expect(bindingLimits(all, null)).toEqual([lab]);
  });

  it("is reached at or over either figure", () => {
    const both = limit({ usd: 1, tokens: 1000 });
    expect(limitReached(both, { usd: 0.99, tokens: 999, calls: 3 })).toBe(false);
    expect(limitReached(both, { usd: 1, tokens: 0, calls: 1 })).toBe(true);
    expect(limitReached(both, { usd: 0, tokens: 1000, calls: 1 })).toBe(true);
  });

  it("says whose budget is spent, what of what, and the command that raises it", () => {
    expect(spendingLimitMessage(limit({ scope: { kind: "person", userId: "u-7" }, period: "day", usd: 5 }), { usd: 5.03, tokens: 10, calls: 2 }, "Ada Lovelace")).toBe(
      "Ada Lovelace's daily budget is spent: $5.03 of $5.00 today (UTC). An admin raises it under Settings → Budgets or with `cli budgets set --user u-7 --period day --usd 11`, then resume the run.",
    );
    expect(spendingLimitMessage(limit({ scope: { kind: "each-person" }, tokens: 1000 }), { usd: 0, tokens: 1200, calls: 2 }, "bob")).toBe(
      "bob's monthly budget is spent: 1,200 tokens of 1,000 this month (UTC). An admin raises it under Settings → Budgets or with `cli budgets set --each-person --period month --tokens 2400`, then resume the run.",
    );
  });

  it("suggests a raise above what is spent, not only twice the limit (a run far over a small limit could not go on)", () => {
    expect(spendingLimitMessage(limit({ scope: { kind: "lab" }, period: "day", tokens: 50 }), { usd: 0, tokens: 1010, calls: 9 }, "the lab")).toContain("`cli budgets set --lab --period day --tokens 2020`");
  });

  it("round-trips scope keys and refuses keys no scope has", () => {
    for (const scope of [{ kind: "lab" }, { kind: "each-person" }, { kind: "person", userId: "a:b" }] as const) expect(scopeOfKey(scopeKey(scope))).toEqual(scope);
    expect(() => scopeOfKey("person:")).toThrow(/Not a budget scope/);
    expect(() => scopeOfKey("team")).toThrow(/lab, each-person or person:<user id>/);
  });
});
