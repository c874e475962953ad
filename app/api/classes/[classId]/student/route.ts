import { getServerContext } from "@/lib/server/app-context";
import { studentToken } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A student's view of the class (`x-class-student: <token>`; 403 for a missing or unknown token). */
export const GET = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  return Response.json(await getServerContext().classes.studentView(classId, studentToken(request)));
});
