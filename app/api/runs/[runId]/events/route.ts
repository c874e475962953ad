import type { NextRequest } from "next/server";
import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ after: z.coerce.number().int().nonnegative().default(0) });

/** A page of the run's events with `seq > after`, plus its status. */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const { after } = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const { service } = getServerContext();
  const branch = branchParam(request);
  const { run, branchId, events } = await service.events(runId, after, branch);
  // The status is read after the events, at the summary's last seq (clients ignore a status older than what they hold).
  const { status, activeCall, lastSeq } = await service.liveness(run, branchId);
  return Response.json({ events, status, activeCall, lastSeq: Math.max(lastSeq, events.at(-1)?.seq ?? 0) });
});
