import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The experiment's results so far (`experimentSummarySchema`), from run summaries. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  return Response.json(await getServerContext().experiments.summary(experimentId));
});
