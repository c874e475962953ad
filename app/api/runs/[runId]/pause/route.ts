import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Pauses the run; answers with its summary. */
export const POST = handle(async (_request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const server = getServerContext();
  await server.service.pause(runId);
  return Response.json(await server.runDetail(runId));
});
