import { getLessonService } from "@/lib/server/lesson-service";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The run the lesson plays: made with the demo model (or imported) on first use, reused afterwards. */
export const POST = handle(async (_request: Request, context: { params: Promise<{ lessonId: string }> }) => {
  const { lessonId } = await context.params;
  return Response.json(await getLessonService().ensureRun(lessonId));
});
