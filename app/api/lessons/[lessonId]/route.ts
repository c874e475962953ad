import { getLessonService } from "@/lib/server/lesson-service";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One lesson: the validated file, its introduction and where it comes from (`folder` or `authored`). */
export const GET = handle(async (_request: Request, context: { params: Promise<{ lessonId: string }> }) => {
  const { lessonId } = await context.params;
  return Response.json(await getLessonService().get(lessonId));
});

/** Deletes a lesson written in the app (204); 409 for a lesson file of the folder (delete the file), 404 when there is none. */
export const DELETE = handle(async (_request: Request, context: { params: Promise<{ lessonId: string }> }) => {
  const { lessonId } = await context.params;
  await getLessonService().remove(lessonId);
  return new Response(null, { status: 204 });
});
