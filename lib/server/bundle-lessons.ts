import type { Lesson, LessonListResponse } from "@/lib/lessons/lesson-schema";
import type { BundleLessonPort } from "./bundle-import";

/** What bundles use of the lesson library (lib/server/lesson-library.ts): the lessons to export, and how to store a bundle's. */
export interface BundleLessons extends BundleLessonPort {
  list(): Promise<LessonListResponse>;
}

/**
 * The lessons written in the app that play one of `runIds` (a `stored` run kind), with their
 * introductions: what a bundle of those runs carries. None without a lesson library.
 */
export async function lessonsPlaying(library: BundleLessons | null, runIds: readonly string[]): Promise<Array<{ lesson: Lesson; introduction: string }>> {
  if (!library) return [];
  const wanted = new Set(runIds);
  const { lessons } = await library.list();
  return lessons
    .filter((document) => document.source === "authored" && document.lesson.run.kind === "stored" && wanted.has(document.lesson.run.runId))
    .map((document) => ({ lesson: document.lesson, introduction: document.introduction }));
}
