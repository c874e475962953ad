import type { PeriodSpend, SpendingLimit, SpendingScope } from "@/lib/domain/spending-limits";

/**
 * Storage of budgets per person and per lab (lib/domain/spending-limits.ts): the limits, and a spend
 * ledger of live calls by account and UTC day (one row per account and day, added to with each call;
 * `""` is the account of runs with no owner). A period's spend is the sum of its days' rows.
 * Adapters: SQLite (./spending-limit-store-sqlite.ts), in-memory (./spending-limit-store-memory.ts),
 * PostgreSQL (./pg/pg-spending-limits.ts); one contract suite (tests/db/spending-limit-store-contract.ts).
 */
export interface SpendingLimitStore {
  /** Every limit, ordered by scope key then period. */
  listLimits(): Promise<SpendingLimit[]>;
  /** Sets (inserts or replaces) the limit of its scope and period. */
  setLimit(limit: SpendingLimit): Promise<void>;
  /** Removes the limit of a scope and period; false when there was none. */
  removeLimit(scope: SpendingScope, period: SpendingLimit["period"]): Promise<boolean>;
  /** Adds one call's spend to the ledger row of (`userKey`, `day`) — `day` is `YYYY-MM-DD` (UTC), `userKey` an account id or "". */
  addSpend(userKey: string, day: string, spend: PeriodSpend): Promise<void>;
  /** The spend since `sinceDay` (inclusive): of one account (`userKey`), or of everyone when `userKey` is null. */
  spentSince(userKey: string | null, sinceDay: string): Promise<PeriodSpend>;
}

/** A zero spend. */
export const NO_SPEND: PeriodSpend = Object.freeze({ usd: 0, tokens: 0, calls: 0 });
