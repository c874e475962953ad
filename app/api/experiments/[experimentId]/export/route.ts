import type { NextRequest } from "next/server";
import { z } from "zod";
import { getServerContext } from "@/lib/server/app-context";
import { EXPERIMENT_EXPORT_FORMATS, EXPERIMENT_FIGURES } from "@/lib/server/experiment-export";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const querySchema = z.object({ format: z.enum(EXPERIMENT_EXPORT_FORMATS).default("csv"), figure: z.enum(EXPERIMENT_FIGURES).default("curve") });

/**
 * Downloads the experiment as CSV (task × arm × repetition × trial rows, carried forward), JSON (summary,
 * paired tests, per-run outcomes and the rows), NDJSON (every run's events), Markdown or LaTeX tables,
 * or an SVG figure (`figure=curve|cost`). The CSV is streamed (lib/server/experiment-csv-stream.ts).
 */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const { format, figure } = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const exporter = getServerContext().experimentExport;
  if (format === "csv") {
    // Streamed a page of runs at a time, so a large experiment downloads in bounded memory.
    const stream = await exporter.csvStream(experimentId);
    return new Response(stream, { headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${exporter.csvFileName(experimentId)}"` } });
  }
  const { text, contentType, fileName } = await exporter.render(experimentId, format, figure);
  return new Response(text, { headers: { "content-type": contentType, "content-disposition": `attachment; filename="${fileName}"` } });
});
