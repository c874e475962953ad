import { AppError } from "@/lib/domain/errors";
import { MAX_JSON_BODY_BYTES, readRequestJson } from "@/lib/io/bounded-body";
import { saveLessonRequestSchema } from "@/lib/lessons/lesson-api";
import { getLessonService } from "@/lib/server/lesson-service";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every lesson (the folder's files and those written in the app) that validates, and the ones that do not (with what is wrong). */
export const GET = handle(async () => Response.json(await getLessonService().list()));

/**
 * Creates or replaces a lesson written in the app (`saveLessonRequestSchema`: its file text, or the
 * lesson as JSON). 201 with the stored lesson; 400 naming the step and field; 409 when the id is a
 * folder lesson's, or (with `expectNew`) an authored lesson's already.
 */
export const POST = handle(async (request: Request) => {
  const body = saveLessonRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "lesson"));
  const lessons = getLessonService();
  if (body.expectNew) {
    const id = "text" in body ? null : (body.lesson as { id?: unknown } | null)?.id;
    const existing = typeof id === "string" ? (await lessons.list()).lessons.find((document) => document.lesson.id === id && document.source === "authored") : undefined;
    if (existing) throw new AppError("conflict", `A lesson "${existing.lesson.id}" was written in the app already (${existing.lesson.title}): give this one another id, or open /lessons/${existing.lesson.id}/edit to change that one.`);
  }
  const document = await lessons.save("text" in body ? { text: body.text } : { lesson: body.lesson, introduction: body.introduction });
  return Response.json({ lesson: document }, { status: 201 });
});
