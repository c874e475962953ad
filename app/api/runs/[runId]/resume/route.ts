import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";
import { budgetSchema } from "@/lib/domain/budget";
import { readTextBounded, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Resumes the run (`budget`: a new budget — `null` removes it); answers with its summary. */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const server = getServerContext();
  const text = await readTextBounded(request, MAX_JSON_BODY_BYTES, "resume request");
  const body = z.object({ step: z.boolean().default(false), budget: budgetSchema.nullable().optional() }).strict().parse(text.trim() ? JSON.parse(text) : {});
  await server.service.resume(runId, branchParam(request), { step: body.step, budget: body.budget });
  return Response.json(await server.runDetail(runId));
});
