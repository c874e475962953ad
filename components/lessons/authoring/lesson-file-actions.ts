import { z } from "zod";
import { apiErrorSchema } from "@/lib/domain/api";
import { lessonFileName, lessonFileText } from "@/lib/lessons/lesson-file";
import { saveLessonResponseSchema, type SaveLessonResponse } from "@/lib/lessons/lesson-api";
import type { Lesson } from "@/lib/lessons/lesson-schema";
import { fetchJson } from "@/lib/query/fetch-json";

/**
 * The authoring page's file actions: Export (the draft as a `.md` download, written in the
 * browser so an unsaved draft exports too), Import (a `.md` file sent to `POST /api/lessons/import`),
 * Delete (`DELETE /api/lessons/:id`).
 */

/** Downloads `lesson` as `<id>.md` (YAML front matter + introduction, the format of lessons/*.md). */
export function downloadLessonFile(lesson: Lesson, introduction: string): void {
  const blob = new Blob([lessonFileText(lesson, introduction)], { type: "text/markdown;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = lessonFileName(lesson.id);
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * Sends a lesson file to `POST /api/lessons/import`.
 * @throws Error with the server's message (what is wrong, by file, step and field).
 */
export async function importLessonFile(file: File): Promise<SaveLessonResponse> {
  const response = await fetch(`/api/lessons/import?name=${encodeURIComponent(file.name)}`, { method: "POST", headers: { "content-type": "text/markdown", accept: "application/json" }, body: await file.text() });
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = apiErrorSchema.safeParse(json);
    throw new Error(error.success ? error.data.error.message : `Import failed (${response.status}).`);
  }
  return saveLessonResponseSchema.parse(json);
}

/** Deletes an authored lesson. @throws ApiRequestError with the server's message. */
export async function deleteLesson(lessonId: string): Promise<void> {
  await fetchJson(`/api/lessons/${encodeURIComponent(lessonId)}`, z.undefined(), { method: "DELETE" });
}
