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
 * or an SVG figure (`figure=curve|cost`).
 */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ experimentId: string }> }) => {
  const { experimentId } = await context.params;
  const { format, figure } = querySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const { text, contentType, fileName } = await getServerContext().experimentExport.render(experimentId, format, figure);
  return new Response(text, { headers: { "content-type": contentType, "content-disposition": `attachment; filename="${fileName}"` } });
});
