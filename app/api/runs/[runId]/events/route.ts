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
  const lastSeq = events.at(-1)?.seq ?? (await service.events(runId, 0, branchId)).events.at(-1)?.seq ?? 0;
  return Response.json({ events, status: await service.status(run, { branchId }), lastSeq });
});
