import { z } from "zod";
import { budgetSchema } from "@/lib/domain/budget";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readTextBounded, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Resumes the experiment where it stopped (missing runs created, paused ones resumed); with `{ budget }`
 * its budget-exhausted runs continue with their share of the new experiment budget. Answers with its summary.
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const server = getServerContext();
  const text = await readTextBounded(request, MAX_JSON_BODY_BYTES, "resume request");
  const body = z.object({ budget: budgetSchema.nullable().optional() }).strict().parse(text.trim() ? JSON.parse(text) : {});
  await server.experiments.resume(experimentId, { budget: body.budget });
  return Response.json(await server.experiments.summary(experimentId));
});
