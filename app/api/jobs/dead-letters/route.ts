import { deadLettersResponseSchema } from "@/lib/domain/job-queue";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The job queue's dead letters — branch jobs that failed every attempt — newest first (at most
 * `?limit=`, default 100), with the queue's counts (issue 17 part 2). In the embedded default there
 * is no job queue: `mode: "in-process"`, no dead letters.
 */
export const GET = handle(async (request: Request) => {
  const raw = Number(new URL(request.url).searchParams.get("limit") ?? 100);
  const limit = Number.isInteger(raw) && raw > 0 ? Math.min(raw, 1000) : 100;
  const { jobs } = getServerContext();
  const [deadLetters, stats] = await Promise.all([jobs.listDeadLetters(limit), jobs.stats()]);
  return Response.json(deadLettersResponseSchema.parse({ mode: jobs.kind, stats, deadLetters }));
});
