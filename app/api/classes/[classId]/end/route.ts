import { getServerContext } from "@/lib/server/app-context";
import { teacherCredential } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Teacher only: ends the class (no more writes; everything stays readable) → the teacher view. 403 without the teacher secret (`x-class-teacher`), 410 once the class ended. */
export const POST = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  const { classes } = getServerContext();
  return Response.json(await classes.end(classId, teacherCredential(request)));
});
