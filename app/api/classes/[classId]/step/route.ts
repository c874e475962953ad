import { classStepRequestSchema } from "@/lib/domain/class-session";
import { getServerContext } from "@/lib/server/app-context";
import { classBody, teacherCredential } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Teacher only: moves the class to step `{ step }` (0-based) → the teacher view. 403 without the teacher secret (`x-class-teacher`), 410 once the class ended. */
export const POST = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  const { classes } = getServerContext();
  await classes.assertTeacher(classId, teacherCredential(request));
  return Response.json(await classes.setStep(classId, teacherCredential(request), (await classBody(request, classStepRequestSchema, "step")).step));
});
