import { and, desc, gte, lt, or, sql, type SQL } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { auditEntrySchema, type AuditEntry, type AuditPage, type AuditQuery } from "@/lib/domain/audit";
import type { AuditStore } from "./audit-store";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { drizzleOver, openSqliteConnection, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link AuditStore}: the `audit_log` table of the app's database file (its own
 * connection, WAL mode; migrations applied on open). Actor and target are JSON text; the person
 * filter reads them with `json_extract`.
 */
export class SqliteAuditStore implements AuditStore {
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

  async record(entry: AuditEntry): Promise<void> {
    const valid = auditEntrySchema.parse(entry);
    this.db
      .insert(schema.auditLog)
      .values({ ...valid, actor: JSON.stringify(valid.actor), target: JSON.stringify(valid.target) })
      .run();
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const t = schema.auditLog;
    const where: SQL[] = [];
    if (query.user !== undefined) where.push(or(sql`json_extract(${t.actor}, '$.userId') = ${query.user}`, sql`json_extract(${t.actor}, '$.name') = ${query.user}`)!);
    if (query.action !== undefined) where.push(sql`substr(${t.action}, 1, ${query.action.length}) = ${query.action}`);
    if (query.since !== undefined) where.push(gte(t.at, query.since));
    if (query.until !== undefined) where.push(lt(t.at, query.until));
    const condition = where.length ? and(...where) : undefined;
    const rows = this.db.select().from(t).where(condition).orderBy(desc(t.at), sql`rowid DESC`).limit(query.limit).offset(query.offset).all();
    const total = this.db.select({ n: sql<number>`count(*)` }).from(t).where(condition).get()?.n ?? 0;
    return { entries: rows.map((row) => auditEntrySchema.parse({ ...row, actor: JSON.parse(row.actor), target: JSON.parse(row.target) })), total };
  }
}
