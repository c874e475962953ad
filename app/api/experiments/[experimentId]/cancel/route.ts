import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Cancels the experiment's queued, running and paused runs; answers with its summary. */
export const POST = handle(async (_request: Request, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  return Response.json(await getServerContext().experiments.cancel(experimentId));
});
