import { and, eq, gte, sql } from "drizzle-orm";
import { scopeKey, type PeriodSpend, type SpendingLimit, type SpendingScope } from "@/lib/domain/spending-limits";
import { compareLimits, limitFromRow, rowOfLimit } from "../spending-limit-rows";
import type { SpendingLimitStore } from "../spending-limit-store";
import type { PgDb } from "./database";
import * as schema from "./schema";

/**
 * The PostgreSQL {@link SpendingLimitStore}: the same tables as SQLite. Every app server and worker adds
 * its calls to the one ledger (`INSERT … ON CONFLICT DO UPDATE … usd = usd + excluded.usd`, atomic per
 * row), so a person's budget counts their runs on every machine.
 */
export class PgSpendingLimitStore implements SpendingLimitStore {
  constructor(private readonly db: PgDb, private readonly ready: () => Promise<void> = async () => undefined) {}

  async listLimits(): Promise<SpendingLimit[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.spendingLimits);
    return rows.map(limitFromRow).sort(compareLimits);
  }

  async setLimit(limit: SpendingLimit): Promise<void> {
    await this.ready();
    const row = rowOfLimit(limit);
    const t = schema.spendingLimits;
    await this.db.insert(t).values(row).onConflictDoUpdate({ target: [t.scope, t.period], set: { usd: row.usd, tokens: row.tokens, updatedAt: row.updatedAt, updatedBy: row.updatedBy } });
  }

  async removeLimit(scope: SpendingScope, period: SpendingLimit["period"]): Promise<boolean> {
    await this.ready();
    const t = schema.spendingLimits;
    const removed = await this.db.delete(t).where(and(eq(t.scope, scopeKey(scope)), eq(t.period, period))).returning({ scope: t.scope });
    return removed.length > 0;
  }

  async addSpend(userKey: string, day: string, spend: PeriodSpend): Promise<void> {
    await this.ready();
    const t = schema.spendLedger;
    await this.db
      .insert(t)
      .values({ userKey, day, ...spend })
      .onConflictDoUpdate({ target: [t.userKey, t.day], set: { usd: sql`${t.usd} + ${spend.usd}`, tokens: sql`${t.tokens} + ${spend.tokens}`, calls: sql`${t.calls} + ${spend.calls}` } });
  }

  async spentSince(userKey: string | null, sinceDay: string): Promise<PeriodSpend> {
    await this.ready();
    const t = schema.spendLedger;
    const where = userKey === null ? gte(t.day, sinceDay) : and(eq(t.userKey, userKey), gte(t.day, sinceDay));
    const [row] = await this.db
      .select({ usd: sql<number>`coalesce(sum(${t.usd}), 0)`, tokens: sql<number>`coalesce(sum(${t.tokens}), 0)`, calls: sql<number>`coalesce(sum(${t.calls}), 0)` })
      .from(t)
      .where(where);
    return { usd: Number(row?.usd ?? 0), tokens: Number(row?.tokens ?? 0), calls: Number(row?.calls ?? 0) };
  }
}
