import { eq } from "drizzle-orm";
import { compareStoredLessons, storedLessonSchema, type LessonStore, type StoredLesson } from "../lesson-store";
import type { PgDb } from "./database";
import * as schema from "./schema";

type Ready = () => Promise<void>;
const noWait: Ready = async () => undefined;

/** The PostgreSQL {@link LessonStore}: the `lessons` table (migration 0014), a save is an upsert on the id. */
export class PgLessonStore implements LessonStore {
  constructor(private readonly db: PgDb, private readonly ready: Ready = noWait) {}

  async listLessons(): Promise<StoredLesson[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.lessons);
    return rows.map((row) => storedLessonSchema.parse(row)).sort(compareStoredLessons);
  }

  async getLesson(id: string): Promise<StoredLesson | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.lessons).where(eq(schema.lessons.id, id));
    return row ? storedLessonSchema.parse(row) : null;
  }

  async putLesson(row: StoredLesson): Promise<void> {
    await this.ready();
    const checked = storedLessonSchema.parse(row);
    await this.db
      .insert(schema.lessons)
      .values(checked)
      .onConflictDoUpdate({ target: schema.lessons.id, set: { fileText: checked.fileText, updatedAt: checked.updatedAt } });
  }

  async deleteLesson(id: string): Promise<boolean> {
    await this.ready();
    const removed = await this.db.delete(schema.lessons).where(eq(schema.lessons.id, id)).returning({ id: schema.lessons.id });
    return removed.length > 0;
  }
}
