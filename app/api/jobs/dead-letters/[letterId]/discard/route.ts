import { discardResponseSchema } from "@/lib/domain/dead-letter-actions";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { DeadLetterService } from "@/lib/server/job-queue/dead-letter-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Discards one dead letter: `200 { discarded: id }`; the run's log is not touched.
 * `404` when the letter is gone; `409` in the embedded mode (no queue).
 */
export const POST = handle(async (_request: Request, context: { params: Promise<{ letterId: string }> }) => {
  const { letterId } = await context.params;
  const { store, jobs } = getServerContext();
  return Response.json(discardResponseSchema.parse({ discarded: await new DeadLetterService(store, jobs).discard(letterId) }));
});
