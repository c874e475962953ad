import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The A/B read-out of a template comparison (`abResultSchema`); 404 for other experiments. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  return Response.json(await getServerContext().templateWorkbench.abResult(experimentId));
});
