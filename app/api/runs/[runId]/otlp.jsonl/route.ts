import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Downloads the run's traces as OTLP JSON lines (one ExportTraceServiceRequest per branch; an OTel Collector's `otlpjsonfile` receiver replays it). */
export const GET = handle(async (_request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const lines = await getServerContext().otlp.jsonLines(runId);
  return new Response(lines, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="run-${runId.slice(0, 8)}-otlp.jsonl"` },
  });
});
