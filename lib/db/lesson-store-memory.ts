import { compareStoredLessons, storedLessonSchema, type LessonStore, type StoredLesson } from "./lesson-store";

/** The in-memory {@link LessonStore} (tests, contexts on a `MemoryRunStore`); returns copies. */
export class MemoryLessonStore implements LessonStore {
  private readonly rows = new Map<string, StoredLesson>();

  async listLessons(): Promise<StoredLesson[]> {
    return [...this.rows.values()].sort(compareStoredLessons).map((row) => ({ ...row }));
  }

  async getLesson(id: string): Promise<StoredLesson | null> {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }

  async putLesson(row: StoredLesson): Promise<void> {
    const checked = storedLessonSchema.parse(row);
    this.rows.set(checked.id, { ...checked });
  }

  async deleteLesson(id: string): Promise<boolean> {
    return this.rows.delete(id);
  }
}
