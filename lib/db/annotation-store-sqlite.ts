import { and, asc, eq, inArray } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { annotationEventSchema, type AnnotationEvent, type AnnotationEventDraft } from "@/lib/domain/annotations";
import type { AnnotationStore } from "./annotation-store";
import { completeDraft, eventOf, requireReferences, rowOf, type AnnotationRow } from "./annotation-rows";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link AnnotationStore}: the `annotation_events` table of the app's database file (its
 * own connection, WAL mode; migrations applied on open). `seq` is `max(seq) + 1` computed inside the
 * INSERT itself, so two processes appending to the same file (the web server and the CLI) never
 * take the same number (SQLite runs one writing statement at a time; the unique index would refuse
 * a duplicate anyway).
 */
export class SqliteAnnotationStore implements AnnotationStore {
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

  /** Runs raw SQL (tests insert the runs an annotation refers to: `run_id` is a foreign key). */
  execForTests(statement: string): void {
    this.client.exec(statement);
  }

  async append(draft: AnnotationEventDraft): Promise<AnnotationEvent> {
    await requireReferences(draft, async (runId, annotationId) => this.hasAnnotation(runId, annotationId));
    const row = rowOf(completeDraft(draft));
    this.insert(row);
    return this.byId(row.id);
  }

  async listForRun(runId: string): Promise<AnnotationEvent[]> {
    return this.listEvents([runId]);
  }

  async listEvents(runIds?: readonly string[]): Promise<AnnotationEvent[]> {
    const t = schema.annotationEvents;
    if (runIds && runIds.length === 0) return [];
    const query = this.db.select().from(t);
    const rows = (runIds ? query.where(inArray(t.runId, [...runIds])) : query).orderBy(asc(t.seq)).all();
    return rows.map(fromRow);
  }

  async importEvents(events: readonly AnnotationEvent[]): Promise<number> {
    const valid = events.map((event) => annotationEventSchema.parse(event)).sort((a, b) => a.seq - b.seq);
    let added = 0;
    this.client.transaction(() => {
      for (const event of valid) added += this.insert(rowOf(event));
    })();
    return added;
  }

  /** Inserts a row with the next `seq`, skipping an id already stored; returns how many rows were added (0 or 1). */
  private insert(row: Omit<AnnotationRow, "seq">): number {
    const result = this.client
      .prepare(
        `INSERT INTO annotation_events (id, seq, run_id, annotation_id, type, data, occurred_at)
         SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ? FROM annotation_events WHERE true
         ON CONFLICT (id) DO NOTHING`,
      )
      .run(row.id, row.runId, row.annotationId, row.type, JSON.stringify(row.data), row.occurredAt);
    return Number(result.changes);
  }

  private hasAnnotation(runId: string, annotationId: string): boolean {
    const t = schema.annotationEvents;
    return this.db.select({ id: t.id }).from(t).where(and(eq(t.runId, runId), eq(t.annotationId, annotationId), eq(t.type, "annotation-add"))).get() !== undefined;
  }

  private byId(id: string): AnnotationEvent {
    const row = this.db.select().from(schema.annotationEvents).where(eq(schema.annotationEvents.id, id)).get();
    if (!row) throw new Error("annotation_events: the event was not stored");
    return fromRow(row);
  }
}

function fromRow(row: typeof schema.annotationEvents.$inferSelect): AnnotationEvent {
  return eventOf({ ...row, data: JSON.parse(row.data) as Record<string, unknown> });
}
