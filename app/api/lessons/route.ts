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
  const input = "text" in body ? { text: body.text } : { lesson: body.lesson, introduction: body.introduction };
  const document = await getLessonService().save(input, { expectNew: body.expectNew });
  return Response.json({ lesson: document }, { status: 201 });
});
