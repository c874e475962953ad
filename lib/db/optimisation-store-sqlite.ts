import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { AppError } from "@/lib/domain/errors";
import { optimisationRecordSchema, type OptimisationRecord } from "@/lib/domain/optimiser/types";
import { compareOptimisations, type OptimisationLeaseClaim, type OptimisationStore } from "./optimisation-store";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link OptimisationStore}: the `optimisations` table of the app's database file (its
 * own connection, WAL mode like the other stores; migrations applied on open).
 */
export class SqliteOptimisationStore implements OptimisationStore {
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

  async createOptimisation(record: OptimisationRecord): Promise<void> {
    const valid = optimisationRecordSchema.parse(record);
    const inserted = this.db.insert(schema.optimisations).values(toRow(valid)).onConflictDoNothing().run();
    if (inserted.changes === 0) throw new AppError("conflict", `An optimisation with id ${record.id} exists already.`);
  }

  async claimOptimisationLease(id: string, owner: string, ttlMs: number, now = Date.now()): Promise<OptimisationLeaseClaim> {
    const table = schema.optimisations;
    const expiresAt = now + ttlMs;
    // One conditional UPDATE: two processes claiming at once cannot both succeed.
    const updated = this.db
      .update(table)
      .set({ leaseOwner: owner, leaseExpiresAt: expiresAt })
      .where(and(eq(table.id, id), or(isNull(table.leaseOwner), eq(table.leaseOwner, owner), lte(table.leaseExpiresAt, now))))
      .run();
    if (updated.changes > 0) return { claimed: true, lease: { owner, expiresAt } };
    const row = this.db.select({ owner: table.leaseOwner, expiresAt: table.leaseExpiresAt }).from(table).where(eq(table.id, id)).get();
    if (!row) throw new AppError("not-found", `No optimisation ${id}.`);
    return { claimed: false, holder: { owner: row.owner ?? "", expiresAt: row.expiresAt ?? 0 } };
  }

  async releaseOptimisationLease(id: string, owner: string): Promise<void> {
    const table = schema.optimisations;
    this.db.update(table).set({ leaseOwner: null, leaseExpiresAt: null }).where(and(eq(table.id, id), eq(table.leaseOwner, owner))).run();
  }

  async saveOptimisation(record: OptimisationRecord): Promise<void> {
    const valid = optimisationRecordSchema.parse(record);
    const { id, ...rest } = toRow(valid);
    const updated = this.db.update(schema.optimisations).set(rest).where(eq(schema.optimisations.id, id)).run();
    if (updated.changes === 0) throw new AppError("not-found", `No optimisation ${record.id}.`);
  }

  async getOptimisation(id: string): Promise<OptimisationRecord | null> {
    const row = this.db.select().from(schema.optimisations).where(eq(schema.optimisations.id, id)).get();
    return row ? fromRow(row) : null;
  }

  async listOptimisations(filter: { targetTemplateId?: string } = {}): Promise<OptimisationRecord[]> {
    const table = schema.optimisations;
    const rows = this.db
      .select()
      .from(table)
      .where(filter.targetTemplateId === undefined ? undefined : eq(table.targetTemplateId, filter.targetTemplateId))
      .all();
    return rows.map(fromRow).sort(compareOptimisations);
  }
}

/** The row's columns apart from the lease (claimed and released on its own, never by a save). */
function toRow(record: OptimisationRecord): typeof schema.optimisations.$inferInsert {
  const { lease: _lease, ...stored } = record;
  return { id: record.id, createdAt: record.createdAt, updatedAt: record.updatedAt, status: record.status, targetTemplateId: record.request.targetTemplateId, record: JSON.stringify(stored) };
}

function fromRow(row: typeof schema.optimisations.$inferSelect): OptimisationRecord {
  const record = optimisationRecordSchema.parse(JSON.parse(row.record));
  return row.leaseOwner !== null && row.leaseExpiresAt !== null ? { ...record, lease: { owner: row.leaseOwner, expiresAt: row.leaseExpiresAt } } : record;
}
