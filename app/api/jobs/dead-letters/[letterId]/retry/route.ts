import { retryResultSchema } from "@/lib/domain/dead-letter-actions";
import { AppError } from "@/lib/domain/errors";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { DeadLetterService } from "@/lib/server/job-queue/dead-letter-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Retries one dead letter: its branch's job is enqueued again (same key; the branch
 * resumes from its log) and the letter removed — `200` with the {@link retryResultSchema} result.
 * A branch that ended, stopped on an error, is paused or is not in this database is refused with
 * `409` and a message saying what to do (nothing is enqueued, the letter stays); an unknown letter
 * is `404`; the embedded mode (no queue) is `409` saying to set `REFLEXION_DATABASE_URL`.
 */
export const POST = handle(async (_request: Request, context: { params: Promise<{ letterId: string }> }) => {
  const { letterId } = await context.params;
  const { store, jobs } = getServerContext();
  const result = await new DeadLetterService(store, jobs).retry(letterId);
  if (result.outcome !== "requeued" && result.outcome !== "already-queued") throw new AppError("conflict", result.message);
  return Response.json(retryResultSchema.parse(result));
});
