import type { NextRequest } from "next/server";
import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ format: z.enum(["csv", "json", "events"]).default("csv") });

/** Downloads the experiment as CSV (task × arm × trial rows), JSON (summary + per-run outcomes) or NDJSON (every run's events). */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const { format } = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const exporter = getServerContext().experimentExport;
  const base = `experiment-${experimentId.slice(0, 8)}`;
  if (format === "csv") {
    return new Response(await exporter.csv(experimentId), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${base}.csv"` },
    });
  }
  if (format === "json") {
    return new Response(`${JSON.stringify(await exporter.json(experimentId), null, 2)}\n`, {
      headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${base}.json"` },
    });
  }
  return new Response(await exporter.eventsNdjson(experimentId), {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="${base}-events.jsonl"` },
  });
});
