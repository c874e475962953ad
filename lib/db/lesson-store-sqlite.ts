import { eq } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { compareStoredLessons, storedLessonSchema, type LessonStore, type StoredLesson } from "./lesson-store";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link LessonStore}: the `lessons` table of the app's database file (its own
 * connection, WAL mode; migrations applied on open). A save is an upsert on the id.
 */
export class SqliteLessonStore implements LessonStore {
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

  async listLessons(): Promise<StoredLesson[]> {
    return this.db.select().from(schema.lessons).all().map((row) => storedLessonSchema.parse(row)).sort(compareStoredLessons);
  }

  async getLesson(id: string): Promise<StoredLesson | null> {
    const row = this.db.select().from(schema.lessons).where(eq(schema.lessons.id, id)).get();
    return row ? storedLessonSchema.parse(row) : null;
  }

  async putLesson(row: StoredLesson): Promise<void> {
    const checked = storedLessonSchema.parse(row);
    this.db
      .insert(schema.lessons)
      .values(checked)
      .onConflictDoUpdate({ target: schema.lessons.id, set: { fileText: checked.fileText, updatedAt: checked.updatedAt } })
      .run();
  }

  async deleteLesson(id: string): Promise<boolean> {
    return this.db.delete(schema.lessons).where(eq(schema.lessons.id, id)).run().changes > 0;
  }
}
