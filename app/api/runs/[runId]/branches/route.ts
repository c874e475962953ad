import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The run's branches (root first) with their status and their own live/cached model calls. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  return Response.json({ branches: await getServerContext().service.branches(runId) });
});
