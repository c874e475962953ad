import { forkRequestSchema } from "@/lib/domain/api";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Forks a branch at a checkpoint into a new branch (edits applied first) and starts it. */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const body = forkRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "fork request"));
  const { branchId } = await getServerContext().service.fork(runId, body);
  return Response.json({ branchId }, { status: 201 });
});
