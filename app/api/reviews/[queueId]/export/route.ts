import type { NextRequest } from "next/server";
import { reviewExportQuerySchema } from "@/lib/domain/review-requests";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { reviewsCsv, reviewsJson } from "@/lib/server/review-export";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/reviews/:queueId/export?format=csv|json`: the queue's reviews as a CSV download (one row per review) or the whole queue as JSON. */
export const GET = handle(async (request: NextRequest, context: { params: Promise<{ queueId: string }> }) => {
  const { queueId } = await context.params;
  const { format } = reviewExportQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const detail = await getServerContext().reviews.detail(queueId);
  const text = format === "csv" ? reviewsCsv(detail) : reviewsJson(detail);
  const contentType = format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8";
  return new Response(text, { headers: { "content-type": contentType, "content-disposition": `attachment; filename="review-${queueId}.${format}"` } });
});
