import type { NextRequest } from "next/server";
import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { branchParam } from "@/lib/server/branch-param";
import { handle } from "@/lib/server/http-errors";
import { runEventStream } from "@/lib/server/run-event-stream";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ after: z.coerce.number().int().nonnegative().default(0) });

/** Live events as SSE, resuming after `?after=` or the `Last-Event-ID` header (whichever is later). */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const { after } = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const lastEventId = Number(request.headers.get("last-event-id") ?? "0");
  const server = getServerContext();
  const run = await server.service.getRun(runId); // 404 before opening a stream
  const branchId = await server.service.branchOf(run, branchParam(request));
  const from = Math.max(after, Number.isFinite(lastEventId) ? lastEventId : 0);
  return runEventStream(server.service, server.bus, runId, branchId, from, request.signal);
});
