import { classReflectionRequestSchema } from "@/lib/domain/class-session";
import { getServerContext } from "@/lib/server/app-context";
import { classBody, studentToken } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Student only (`x-class-student`): the student's reflection `{ step, text }` (1..600 characters)
 * at the current practice step, replaceable until the teacher runs forks → the student's view.
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  const body = await classBody(request, classReflectionRequestSchema, "reflection");
  return Response.json(await getServerContext().classes.reflect(classId, studentToken(request), body));
});
