import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/reviews/:queueId`: the queue, its items, every review and the progress with agreement (404 for an unknown queue). */
export const GET = handle(async (_request: Request, context: { params: Promise<{ queueId: string }> }) => {
  const { queueId } = await context.params;
  return Response.json(await getServerContext().reviews.detail(queueId));
});
