import { annotationResponseSchema } from "@/lib/domain/annotation-api";
import { ANNOTATION_TEXT_MAX, annotationChangeRequestSchema } from "@/lib/domain/annotations";
import { readRequestJson } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Largest request body, in bytes (as the POST route's). */
const MAX_ANNOTATION_BODY_BYTES = 64 * 1024;

/**
 * `PATCH /api/runs/:runId/annotations/:annotationId` with `{ author, content }` (an edit: the new
 * content replaces the old, which stays in the history) or `{ author, delete: true }` → `{ annotation }`.
 * Both are appended to the annotation log. 404 for an unknown run or annotation, 409 when it is deleted already.
 */
export const PATCH = handle(async (request: Request, context: { params: Promise<{ runId: string; annotationId: string }> }) => {
  const { runId, annotationId } = await context.params;
  const body = annotationChangeRequestSchema.parse(await readRequestJson(request, MAX_ANNOTATION_BODY_BYTES, "annotation change", `Send a shorter note: a comment is at most ${ANNOTATION_TEXT_MAX.toLocaleString("en")} characters.`));
  const annotation = await getServerContext().annotations.change(runId, annotationId, body);
  return Response.json(annotationResponseSchema.parse({ annotation }));
});
