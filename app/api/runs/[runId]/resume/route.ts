import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Resumes the run; answers with its summary. */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const server = getServerContext();
  const text = await request.text();
  const body = z.object({ step: z.boolean().default(false) }).strict().parse(text.trim() ? JSON.parse(text) : {});
  await server.service.resume(runId, branchParam(request), { step: body.step });
  return Response.json(await server.runDetail(runId));
});
