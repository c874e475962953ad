import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Cancels the run (or `?branch=`): at the next boundary when running, at once when paused or interrupted. */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const server = getServerContext();
  await server.service.cancel(runId, branchParam(request));
  return Response.json(await server.runDetail(runId));
});
