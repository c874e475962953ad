import { classForksRequestSchema } from "@/lib/domain/class-session";
import { getServerContext } from "@/lib/server/app-context";
import { classBody, teacherCredential } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Teacher only: runs trial N+1 of the lesson's run with each picked reflection group
 * (`{ step, groupIds }`, 1..4), each on its own branch → 201 `{ forks }` (every fork of the class).
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  await getServerContext().classes.assertTeacher(classId, teacherCredential(request));
  const body = await classBody(request, classForksRequestSchema, "forks request");
  return Response.json(await getServerContext().classes.runForks(classId, teacherCredential(request), body), { status: 201 });
});
