import { and, desc, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { auditEntrySchema, type AuditEntry, type AuditPage, type AuditQuery } from "@/lib/domain/audit";
import type { AuditStore } from "../audit-store";
import type { PgDb } from "./database";
import * as schema from "./schema";

/** The PostgreSQL {@link AuditStore}: the `audit_log` table (actor and target as jsonb), in the order entries were added (`ord`) among equal times. */
export class PgAuditStore implements AuditStore {
  constructor(
    private readonly db: PgDb,
    private readonly ready: () => Promise<void> = async () => undefined,
  ) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.ready();
    await this.db.insert(schema.auditLog).values(auditEntrySchema.parse(entry));
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    await this.ready();
    const t = schema.auditLog;
    const where: SQL[] = [];
    if (query.user !== undefined) where.push(or(sql`${t.actor} ->> 'userId' = ${query.user}`, sql`${t.actor} ->> 'name' = ${query.user}`)!);
    if (query.action !== undefined) where.push(sql`left(${t.action}, ${query.action.length}) = ${query.action}`);
    if (query.since !== undefined) where.push(gte(t.at, query.since));
    if (query.until !== undefined) where.push(lt(t.at, query.until));
    const condition = where.length ? and(...where) : undefined;
    const rows = await this.db.select().from(t).where(condition).orderBy(desc(t.at), desc(t.ord)).limit(query.limit).offset(query.offset);
    const [count] = await this.db.select({ n: sql<number>`count(*)::int` }).from(t).where(condition);
    return { entries: rows.map(({ ord: _ord, ...row }) => auditEntrySchema.parse(row)), total: Number(count?.n ?? 0) };
  }
}
