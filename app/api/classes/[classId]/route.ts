import type { NextRequest } from "next/server";
import { getServerContext } from "@/lib/server/app-context";
import { teacherCredential } from "@/lib/server/class-request";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The teacher's view of a class (`x-class-teacher: <secret>`; 403 without it); `?view=projector`
 * answers the same shape with every nickname null.
 */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  const projector = request.nextUrl.searchParams.get("view") === "projector";
  return Response.json(await getServerContext().classes.teacherView(classId, teacherCredential(request), { projector }));
});
