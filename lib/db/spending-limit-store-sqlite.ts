import { and, eq, gte, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { scopeKey, type PeriodSpend, type SpendingLimit, type SpendingScope } from "@/lib/domain/spending-limits";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";
import { compareLimits, limitFromRow, rowOfLimit } from "./spending-limit-rows";
import type { SpendingLimitStore } from "./spending-limit-store";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link SpendingLimitStore}: the `spending_limits` and `spend_ledger` tables of the app's
 * database file (its own connection; migrations applied on open). A call's spend is added with one
 * `INSERT … ON CONFLICT DO UPDATE`, so concurrent writers never lose a call.
 */
export class SqliteSpendingLimitStore implements SpendingLimitStore {
  private readonly client: SqliteConnection;
  private readonly db: Db;

  /** Opens (creating if needed) the database at `file`; `:memory:` gives a private database (tests). */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file);
    this.db = drizzleOver(this.client, schema);
    migrate(this.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
  }

  /** Closes the connection. */
  close(): void {
    this.client.close();
  }

  async listLimits(): Promise<SpendingLimit[]> {
    return this.db.select().from(schema.spendingLimits).all().map(limitFromRow).sort(compareLimits);
  }

  async setLimit(limit: SpendingLimit): Promise<void> {
    const row = rowOfLimit(limit);
    const t = schema.spendingLimits;
    this.db.insert(t).values(row).onConflictDoUpdate({ target: [t.scope, t.period], set: { usd: row.usd, tokens: row.tokens, updatedAt: row.updatedAt, updatedBy: row.updatedBy } }).run();
  }

  async removeLimit(scope: SpendingScope, period: SpendingLimit["period"]): Promise<boolean> {
    const t = schema.spendingLimits;
    return this.db.delete(t).where(and(eq(t.scope, scopeKey(scope)), eq(t.period, period))).run().changes > 0;
  }

  async addSpend(userKey: string, day: string, spend: PeriodSpend): Promise<void> {
    const t = schema.spendLedger;
    this.db
      .insert(t)
      .values({ userKey, day, ...spend })
      .onConflictDoUpdate({ target: [t.userKey, t.day], set: { usd: sql`${t.usd} + ${spend.usd}`, tokens: sql`${t.tokens} + ${spend.tokens}`, calls: sql`${t.calls} + ${spend.calls}` } })
      .run();
  }

  async spentSince(userKey: string | null, sinceDay: string): Promise<PeriodSpend> {
    const t = schema.spendLedger;
    const where = userKey === null ? gte(t.day, sinceDay) : and(eq(t.userKey, userKey), gte(t.day, sinceDay));
    const [row] = this.db
      .select({ usd: sql<number>`coalesce(sum(${t.usd}), 0)`, tokens: sql<number>`coalesce(sum(${t.tokens}), 0)`, calls: sql<number>`coalesce(sum(${t.calls}), 0)` })
      .from(t)
      .where(where)
      .all();
    return { usd: Number(row?.usd ?? 0), tokens: Number(row?.tokens ?? 0), calls: Number(row?.calls ?? 0) };
  }
}
