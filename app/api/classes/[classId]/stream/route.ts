import { getServerContext } from "@/lib/server/app-context";
import { classVersionStream } from "@/lib/server/class-stream";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Public: the class's version as SSE (`event: version`, `data: {"version":N}`) on every change; refetch your view on each. */
export const GET = handle(async (request: Request, context: { params: Promise<{ classId: string }> }) => {
  const { classId } = await context.params;
  const { classes } = getServerContext();
  const version = await classes.version(classId); // 404 before opening a stream
  return classVersionStream(classes, classId, version, request.signal);
});
