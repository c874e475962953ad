import { reviewQueueViewQuerySchema } from "@/lib/domain/review-view";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/reviews/:queueId`: the queue, its items, every review and the progress with agreement
 * (404 for an unknown queue). `?reviewer=<name>`: that reviewer's view instead (lib/domain/review-view.ts;
 * 400 for a name not among the queue's reviewers); `?reviewer=` (empty): the view before a name is picked.
 */
export const GET = handle(async (request: Request, context: { params: Promise<{ queueId: string }> }) => {
  const { queueId } = await context.params;
  const { reviewer } = reviewQueueViewQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const reviews = getServerContext().reviews;
  return Response.json(reviewer === undefined ? await reviews.detail(queueId) : await reviews.viewFor(queueId, reviewer === "" ? null : reviewer));
});
