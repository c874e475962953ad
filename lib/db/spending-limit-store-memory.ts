import { scopeKey, type PeriodSpend, type SpendingLimit, type SpendingScope } from "@/lib/domain/spending-limits";
import { compareLimits } from "./spending-limit-rows";
import type { SpendingLimitStore } from "./spending-limit-store";

/** The in-memory {@link SpendingLimitStore} (tests, contexts on a `MemoryRunStore`); returns copies. */
export class MemorySpendingLimitStore implements SpendingLimitStore {
  private readonly limits = new Map<string, SpendingLimit>();
  private readonly ledger = new Map<string, { userKey: string; day: string } & PeriodSpend>();

  async listLimits(): Promise<SpendingLimit[]> {
    return [...this.limits.values()].sort(compareLimits).map((limit) => structuredClone(limit));
  }

  async setLimit(limit: SpendingLimit): Promise<void> {
    this.limits.set(`${scopeKey(limit.scope)}\u0000${limit.period}`, structuredClone(limit));
  }

  async removeLimit(scope: SpendingScope, period: SpendingLimit["period"]): Promise<boolean> {
    return this.limits.delete(`${scopeKey(scope)}\u0000${period}`);
  }

  async addSpend(userKey: string, day: string, spend: PeriodSpend): Promise<void> {
    const key = `${userKey}\u0000${day}`;
    const row = this.ledger.get(key) ?? { userKey, day, usd: 0, tokens: 0, calls: 0 };
    this.ledger.set(key, { ...row, usd: row.usd + spend.usd, tokens: row.tokens + spend.tokens, calls: row.calls + spend.calls });
  }

  async spentSince(userKey: string | null, sinceDay: string): Promise<PeriodSpend> {
    const total = { usd: 0, tokens: 0, calls: 0 };
    for (const row of this.ledger.values()) {
      if (row.day < sinceDay || (userKey !== null && row.userKey !== userKey)) continue;
      total.usd += row.usd;
      total.tokens += row.tokens;
      total.calls += row.calls;
    }
    return total;
  }
}
