import { getLessonService } from "@/lib/server/lesson-service";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The lesson as a `.md` file download (`<id>.md`: YAML front matter + introduction, the format of
 * `lessons/*.md`); `POST /api/lessons/import` and the lessons folder read it back as the same lesson.
 */
export const GET = handle(async (_request: Request, context: { params: Promise<{ lessonId: string }> }) => {
  const { lessonId } = await context.params;
  const { fileName, text } = await getLessonService().fileOf(lessonId);
  return new Response(text, {
    headers: {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
    },
  });
});
