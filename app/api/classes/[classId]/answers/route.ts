import { classAnswerRequestSchema } from "@/lib/domain/class-session";
import { getServerContext } from "@/lib/server/app-context";
import { classBody, studentToken } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Student only (`x-class-student`): answers the current step's question `{ step, choiceId }`,
 * changeable until the reveal (then 409) → the student's view. 409 when the teacher moved on.
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  const body = await classBody(request, classAnswerRequestSchema, "answer");
  return Response.json(await getServerContext().classes.answer(classId, studentToken(request), body));
});
