import { reviewSaveRequestSchema } from "@/lib/domain/review-requests";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { MAX_JSON_BODY_BYTES, readRequestJson } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `POST /api/reviews/:queueId/reviews` {@link reviewSaveRequestSchema}: one reviewer's review of one
 * item (saving again replaces it); 201 with the stored review (pairwise: with the preferred arm).
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ queueId: string }> }) => {
  const { queueId } = await context.params;
  const body = reviewSaveRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "review"));
  return Response.json(await getServerContext().reviews.saveReview(queueId, body), { status: 201 });
});
