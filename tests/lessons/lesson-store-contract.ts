import { expect, it } from "vitest";
import type { LessonStore, StoredLesson } from "@/lib/db/lesson-store";

/** A stored lesson row; `overrides` replace fields. */
export function makeStoredLesson(overrides: Partial<StoredLesson> = {}): StoredLesson {
  return { id: "my-lesson", fileText: "---\nid: my-lesson\n---\n\nIntro — «quotes», naïve\n", updatedAt: "2026-12-01T10:00:00.000Z", ...overrides };
}

/**
 * The rules every {@link LessonStore} keeps (memory, SQLite, PostgreSQL): a row reads back exactly,
 * a save with the same id replaces it, the list is by id, and delete says whether there was one.
 * `make` hands out an empty store.
 */
export function lessonStoreContract(make: () => Promise<LessonStore>): void {
  it("starts empty, stores a lesson and reads it back exactly (unicode text)", async () => {
    const store = await make();
    expect(await store.listLessons()).toEqual([]);
    expect(await store.getLesson("my-lesson")).toBeNull();
    const row = makeStoredLesson();
    await store.putLesson(row);
    expect(await store.getLesson("my-lesson")).toEqual(row);
    expect(await store.listLessons()).toEqual([row]);
  });

  it("a save with the same id replaces the text and time; the list is by id", async () => {
    const store = await make();
    await store.putLesson(makeStoredLesson({ id: "zeta" }));
    await store.putLesson(makeStoredLesson({ id: "alpha" }));
    const replaced = makeStoredLesson({ id: "zeta", fileText: "---\nid: zeta\n---\n", updatedAt: "2026-12-02T10:00:00.000Z" });
    await store.putLesson(replaced);
    const rows = await store.listLessons();
    expect(rows.map((row) => row.id)).toEqual(["alpha", "zeta"]);
    expect(rows[1]).toEqual(replaced);
  });

  it("delete removes one lesson and says false for a lesson that is not there", async () => {
    const store = await make();
    await store.putLesson(makeStoredLesson({ id: "a" }));
    await store.putLesson(makeStoredLesson({ id: "b" }));
    expect(await store.deleteLesson("a")).toBe(true);
    expect(await store.deleteLesson("a")).toBe(false);
    expect((await store.listLessons()).map((row) => row.id)).toEqual(["b"]);
  });

  it("refuses a row without text, storing nothing", async () => {
    const store = await make();
    await expect(store.putLesson(makeStoredLesson({ fileText: "" }))).rejects.toThrow();
    expect(await store.listLessons()).toEqual([]);
  });
}
