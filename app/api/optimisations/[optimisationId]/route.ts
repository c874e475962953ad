import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One optimisation's record (`optimisationRecordSchema`) → `{ optimisation }`; 404 for an unknown id. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ optimisationId: string }> }) => {
  const { optimisationId } = await context.params;
  return Response.json({ optimisation: await getServerContext().optimiser.get(optimisationId) });
});
