import { breakpointsSchema } from "@/lib/domain/config";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Sets the run's breakpoints (recorded as `settings-edit`). */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const body = breakpointsSchema.strict().parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "breakpoints request"));
  const server = getServerContext();
  await server.service.setBreakpoints(runId, body, branchParam(request));
  return Response.json(await server.runDetail(runId));
});
