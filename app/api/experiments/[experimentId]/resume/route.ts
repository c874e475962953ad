import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Resumes the experiment where it stopped (missing runs created, paused ones resumed); answers with its summary. */
export const POST = handle(async (_request: Request, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const server = getServerContext();
  await server.experiments.resume(experimentId);
  return Response.json(await server.experiments.summary(experimentId));
});
