import { editRequestSchema } from "@/lib/domain/api";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Edits a paused run's reflection or memory (appended as an edit event with old and new values). */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const body = editRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "edit"));
  const server = getServerContext();
  await server.service.edit(runId, body, branchParam(request));
  return Response.json(await server.runDetail(runId));
});
