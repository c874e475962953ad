import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFinderOf, accountNameOf, openSignIn } from "@/lib/auth/accounts";
import { MemorySpendingLimitStore } from "@/lib/db/spending-limit-store-memory";
import { SpendingLimitService } from "@/lib/server/spending-limit-service";
import { resolveAuditUser } from "@/lib/server/audit-user";
import { sharedPglite } from "../db/pg-test-stores";

/**
 * A person's budget in shared mode names a real account: by email or id, stored under the id (what runs'
 * owners are), shown under the person's name; a name no account has is refused instead of a budget that
 * binds nobody.
 */

const pglite = sharedPglite();
beforeAll(() => pglite.open(), 120_000);
afterAll(() => pglite.close());

describe("the audit's --user", () => {
  it("finds a person by id, email or name (any case), so CLI entries under 'Rita (token ci)' match; keeps an unknown value as typed", async () => {
    const store = await pglite.makeStore();
    const { accounts } = openSignIn(store.pg.db, { REFLEXION_SIGN_IN: "on", BETTER_AUTH_SECRET: "budget-secret-budget-secret-budget-0123" });
    const rita = await accounts!.users.add({ email: "rita@lab.test", name: "Rita", password: "rita-password-1", role: "runner" });
    for (const value of [rita.id, "RITA@lab.test", "rita", "Rita"]) expect(await resolveAuditUser(accounts, value)).toBe(rita.id);
    expect(await resolveAuditUser(accounts, "cli")).toBe("cli");
    expect(await resolveAuditUser(null, "rita")).toBe("rita");
  });
});

describe("budgets name accounts", () => {
  it("takes an email or an id, stores the id, labels it with the name, and refuses an unknown account", async () => {
    const store = await pglite.makeStore();
    const { accounts } = openSignIn(store.pg.db, { REFLEXION_SIGN_IN: "on", BETTER_AUTH_SECRET: "budget-secret-budget-secret-budget-0123" });
    const vic = await accounts!.users.add({ email: "vic@lab.test", name: "Vic", password: "vic-password-1", role: "runner" });
    const spending = new SpendingLimitService(store, new MemorySpendingLimitStore(), accountNameOf(accounts), undefined, accountFinderOf(accounts));

    const byEmail = await spending.set({ scope: { kind: "person", userId: "VIC@lab.test" }, period: "day", tokens: 1500 }, "ada");
    expect(byEmail.scope).toEqual({ kind: "person", userId: vic.id });
    await spending.set({ scope: { kind: "person", userId: vic.id }, period: "month", usd: 20 }, "ada");
    expect((await spending.list()).map((view) => [view.label, view.limit.period])).toEqual([
      ["Vic", "day"],
      ["Vic", "month"],
    ]);
    expect(await spending.remove({ kind: "person", userId: "vic@lab.test" }, "month")).toBe(true);
    await expect(spending.set({ scope: { kind: "person", userId: "nobody-such-id" }, period: "day", tokens: 5 }, "ada")).rejects.toMatchObject({
      code: "invalid-input",
      message: 'No account "nobody-such-id": give an account\'s email or id (see `cli users list` or Settings → Users).',
    });
  });
});
