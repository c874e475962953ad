import { scopeKey, scopeOfKey, spendingLimitSchema, type SpendingLimit } from "@/lib/domain/spending-limits";

/** The columns of a `spending_limits` row (both databases). */
export interface SpendingLimitRow {
  scope: string;
  period: string;
  usd: number | null;
  tokens: number | null;
  updatedAt: string;
  updatedBy: string | null;
}

/** A stored row as a {@link SpendingLimit} (validated: a row no limit could be is an error naming it). */
export function limitFromRow(row: SpendingLimitRow): SpendingLimit {
  return spendingLimitSchema.parse({ ...row, scope: scopeOfKey(row.scope) });
}

/** A {@link SpendingLimit} as its row. */
export function rowOfLimit(limit: SpendingLimit): SpendingLimitRow {
  return { scope: scopeKey(limit.scope), period: limit.period, usd: limit.usd, tokens: limit.tokens, updatedAt: limit.updatedAt, updatedBy: limit.updatedBy };
}

/** Order of `listLimits`: scope key, then period. */
export function compareLimits(a: SpendingLimit, b: SpendingLimit): number {
  return scopeKey(a.scope).localeCompare(scopeKey(b.scope)) || a.period.localeCompare(b.period);
}
