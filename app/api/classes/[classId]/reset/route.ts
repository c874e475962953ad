import { getServerContext } from "@/lib/server/app-context";
import { teacherCredential } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Teacher only: clears the class's answers, reflections and forks, back to step 0 → the teacher view. 403 without the teacher secret (`x-class-teacher`), 410 once the class ended. */
export const POST = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  const { classes } = getServerContext();
  return Response.json(await classes.reset(classId, teacherCredential(request)));
});
