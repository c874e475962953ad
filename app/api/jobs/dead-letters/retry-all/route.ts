import { retryAllResponseSchema } from "@/lib/domain/dead-letter-actions";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { DeadLetterService } from "@/lib/server/job-queue/dead-letter-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Retries every dead letter: each runnable branch's job is enqueued again and its letter
 * removed; letters whose branch ended, is paused or is missing are refused and stay. `200` with each
 * letter's result and the counts; `409` in the embedded mode (no queue).
 */
export const POST = handle(async () => {
  const { store, jobs } = getServerContext();
  return Response.json(retryAllResponseSchema.parse(await new DeadLetterService(store, jobs).retryAll()));
});
