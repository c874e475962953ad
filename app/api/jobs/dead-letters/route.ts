import { deadLetterListResponseSchema } from "@/lib/domain/dead-letter-actions";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { DeadLetterService } from "@/lib/server/job-queue/dead-letter-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The job queue's dead letters — branch jobs that failed every attempt — newest first (at most
 * `?limit=`, default 100), with the queue's counts and, per letter, what its branch is doing now and
 * why a retry would be refused. In the embedded default there is no job queue:
 * `mode: "in-process"`, no dead letters.
 */
export const GET = handle(async (request: Request) => {
  const raw = Number(new URL(request.url).searchParams.get("limit") ?? 100);
  const limit = Number.isInteger(raw) && raw > 0 ? Math.min(raw, 1000) : 100;
  const { store, jobs } = getServerContext();
  return Response.json(deadLetterListResponseSchema.parse(await new DeadLetterService(store, jobs).list(limit)));
});
