import { z } from "zod";
import { lessonDocumentSchema } from "./lesson-schema";

/**
 * Request and response bodies of the lesson authoring routes (docs/guides/teaching.md, "Writing a
 * lesson in the app"). Pure zod: shared by the routes and the authoring page.
 */

/** Most characters of a lesson file's text a request may carry (40 steps of long narration fit well under it). */
export const MAX_LESSON_FILE_CHARS = 400_000;

/**
 * `POST /api/lessons`: an authored lesson from its file text (`text`) or as JSON (`lesson`, validated
 * with lessonSchema by the service, and `introduction`). `expectNew` refuses (409) to replace a lesson
 * saved earlier under the same id (the authoring page's first save); without it, a save replaces.
 */
export const saveLessonRequestSchema = z.union([
  z.object({ text: z.string().min(1).max(MAX_LESSON_FILE_CHARS), expectNew: z.boolean().optional() }).strict(),
  z.object({ lesson: z.unknown(), introduction: z.string().max(4_000).optional(), expectNew: z.boolean().optional() }).strict(),
]);
export type SaveLessonRequest = z.infer<typeof saveLessonRequestSchema>;

/** `POST /api/lessons` and `POST /api/lessons/import` → 201: the stored lesson; `renamedFrom` when an import took a free id (`<id>-2`) because its own was taken. */
export const saveLessonResponseSchema = z.object({ lesson: lessonDocumentSchema, renamedFrom: z.string().optional() });
export type SaveLessonResponse = z.infer<typeof saveLessonResponseSchema>;
