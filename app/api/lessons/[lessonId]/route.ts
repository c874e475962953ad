import { getLessonService } from "@/lib/server/lesson-service";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One lesson: the validated file and its introduction. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ lessonId: string }> }) => {
  const { lessonId } = await context.params;
  return Response.json(getLessonService().get(lessonId));
});
