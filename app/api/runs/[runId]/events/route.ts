import type { NextRequest } from "next/server";
import { eventPageQuerySchema } from "@/lib/domain/api";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * A page of the run's events with `seq > after` (at most `limit`, default 1,000, at most 5,000:
 * lib/domain/api.ts), plus its status. `more` says another page follows: read it with
 * `after=<nextAfter>`. A long run is never sent as one response.
 */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const { after, limit } = eventPageQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const { service } = getServerContext();
  const branch = branchParam(request);
  const { run, branchId, events, more } = await service.events(runId, after, branch, limit);
  // The status is read after the events, at the summary's last seq (clients ignore a status older than what they hold).
  const { status, activeCall, lastSeq } = await service.liveness(run, branchId);
  const nextAfter = events.at(-1)?.seq ?? after;
  return Response.json({ events, status, activeCall, lastSeq: Math.max(lastSeq, events.at(-1)?.seq ?? 0), nextAfter, more });
});
