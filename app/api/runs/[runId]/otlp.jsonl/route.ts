import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { namesModeOf } from "@/lib/domain/strip-names";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `?names=strip` replaces people's names with pseudonyms (docs/audit.md). Downloads the run's traces as OTLP JSON lines (one ExportTraceServiceRequest per branch; an OTel Collector's `otlpjsonfile` receiver replays it). */
export const GET = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const lines = await getServerContext().otlp.jsonLines(runId, namesModeOf(new URL(request.url).searchParams.get("names")));
  return new Response(lines, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="run-${runId.slice(0, 8)}-otlp.jsonl"` },
  });
});
