import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Public: the class a join code names, `{ classId, lessonTitle, status }`, or 404 "No class with code X". */
export const GET = handle(async (_request: Request, context: { params: Promise<{ code: string }> }) => {
  const { code } = await context.params;
  return Response.json(await getServerContext().classes.byCode(code));
});
