import { and, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { provenanceColumn, provenanceOf } from "@/lib/db/insight-provenance-column";
import type { MemoryEntry, MemoryStoreInfo } from "@/lib/domain/memory-store";
import type { MemoryEntryQuery, MemoryStoreRepository } from "./memory-store-entries";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;
type EntryRow = typeof schema.memoryEntries.$inferSelect;

/** The SQLite {@link MemoryStoreRepository}: `memory_stores` + `memory_entries` of the app's database (own connection, migrations on open). */
export class SqliteMemoryStoreRepository implements MemoryStoreRepository {
  private readonly client: SqliteConnection;
  private readonly db: Db;

  /** Opens (creating if needed) the database at `file`; `:memory:` gives a private database (tests). */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file, { foreignKeys: true });
    this.db = drizzleOver(this.client, schema);
    migrate(this.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
  }

  /** Closes the connection. */
  close(): void {
    this.client.close();
  }

  async listStores(now: string): Promise<MemoryStoreInfo[]> {
    const stores = this.db.select().from(schema.memoryStores).orderBy(schema.memoryStores.name).all();
    const counts = this.db
      .select({
        store: schema.memoryEntries.store,
        entries: sql<number>`count(*)`,
        tasks: sql<number>`count(distinct ${schema.memoryEntries.environment} || char(0) || ${schema.memoryEntries.taskId})`,
      })
      .from(schema.memoryEntries)
      .where(gt(schema.memoryEntries.expiresAt, now))
      .groupBy(schema.memoryEntries.store)
      .all();
    const byStore = new Map(counts.map((row) => [row.store, row]));
    return stores.map((store) => ({
      name: store.name,
      retentionDays: store.retentionDays,
      createdAt: store.createdAt,
      entryCount: Number(byStore.get(store.name)?.entries ?? 0),
      taskCount: Number(byStore.get(store.name)?.tasks ?? 0),
    }));
  }

  async putStore(input: { name: string; retentionDays: number; createdAt: string }): Promise<void> {
    this.db
      .insert(schema.memoryStores)
      .values(input)
      .onConflictDoUpdate({ target: schema.memoryStores.name, set: { retentionDays: input.retentionDays } })
      .run();
  }

  async retentionOf(name: string): Promise<number | null> {
    return this.db.select().from(schema.memoryStores).where(eq(schema.memoryStores.name, name)).get()?.retentionDays ?? null;
  }

  async addEntries(entries: readonly MemoryEntry[]): Promise<number> {
    let added = 0;
    this.client.transaction(() => {
      for (const entry of entries) {
        const result = this.db
          .insert(schema.memoryEntries)
          .values({
            id: entry.id,
            store: entry.store,
            environment: entry.environment,
            taskId: entry.taskId,
            text: entry.text,
            sourceRunId: entry.source.runId,
            sourceBranchId: entry.source.branchId,
            sourceTrial: entry.source.trial,
            sourceEventId: entry.source.eventId,
            createdAt: entry.createdAt,
            expiresAt: entry.expiresAt,
            provenance: provenanceColumn(entry),
          })
          .onConflictDoNothing()
          .run();
        added += result.changes;
      }
    })();
    return added;
  }

  async entriesFor(query: MemoryEntryQuery): Promise<MemoryEntry[]> {
    const t = schema.memoryEntries;
    return this.db
      .select()
      .from(t)
      .where(
        and(
          eq(t.store, query.store),
          query.environment === undefined ? undefined : eq(t.environment, query.environment),
          query.taskId === undefined ? undefined : eq(t.taskId, query.taskId),
          gt(t.expiresAt, query.now),
        ),
      )
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(query.limit)
      .all()
      .map(toEntry);
  }

  async deleteEntries(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.delete(schema.memoryEntries).where(inArray(schema.memoryEntries.id, [...ids])).run().changes;
  }

  async deleteExpired(now: string): Promise<number> {
    return this.db.delete(schema.memoryEntries).where(lte(schema.memoryEntries.expiresAt, now)).run().changes;
  }
}

function toEntry(row: EntryRow): MemoryEntry {
  return {
    id: row.id,
    store: row.store,
    environment: row.environment,
    taskId: row.taskId,
    text: row.text,
    source: { runId: row.sourceRunId, branchId: row.sourceBranchId, trial: row.sourceTrial, eventId: row.sourceEventId },
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    ...provenanceOf(row.provenance),
  };
}
