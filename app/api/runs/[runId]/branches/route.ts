import { withoutClassBranches } from "@/lib/domain/class-rules";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The run's branches (root first) with their status and their own live/cached model calls —
 * without the branches classes made (class forks live under their class, docs/guides/teaching.md).
 */
export const GET = handle(async (_request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const server = getServerContext();
  const [branches, classBranches] = await Promise.all([server.service.branches(runId), server.classes.classBranchIds(runId)]);
  return Response.json({ branches: withoutClassBranches(branches, classBranches) });
});
