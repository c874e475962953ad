import { z } from "zod";

/**
 * Storage of lessons written in the app (docs/decisions/0043-class-sessions.md): one row per
 * lesson, its `.md` file text as written (YAML front matter + introduction) and when it was last
 * saved. The text is validated by the lesson service (parseLessonFile) before it is put and again
 * when read, so a row that no longer validates is listed as a problem, never dropped.
 * Adapters: in-memory (./lesson-store-memory.ts), SQLite (./lesson-store-sqlite.ts), PostgreSQL
 * (./pg/pg-lessons.ts); one contract (tests/lessons/lesson-store-contract.ts).
 */

/** One stored lesson. */
export const storedLessonSchema = z.object({
  /** The lesson's id (lower-case words joined by hyphens), unique. */
  id: z.string().min(1),
  /** The whole lesson file's text. */
  fileText: z.string().min(1),
  /** ISO-8601 time of the last save. */
  updatedAt: z.string().min(1),
});
export type StoredLesson = z.infer<typeof storedLessonSchema>;

/** The authored lessons' store. */
export interface LessonStore {
  /** Every stored lesson, by id. */
  listLessons(): Promise<StoredLesson[]>;
  /** One lesson, or null. */
  getLesson(id: string): Promise<StoredLesson | null>;
  /** Creates or replaces the lesson `row.id`. */
  putLesson(row: StoredLesson): Promise<void>;
  /** Removes a lesson; false when there was none. */
  deleteLesson(id: string): Promise<boolean>;
}

/** Sort order of {@link LessonStore.listLessons}: by id. */
export function compareStoredLessons(a: StoredLesson, b: StoredLesson): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
