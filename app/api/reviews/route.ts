import { reviewQueueCreateRequestSchema } from "@/lib/domain/review-requests";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { MAX_JSON_BODY_BYTES, readRequestJson } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/reviews`: every review queue, newest first, with its progress and agreement
 * (`{ queues: ReviewQueueListItem[] }`, lib/domain/review-requests.ts). `POST`
 * {@link reviewQueueCreateRequestSchema}: build a queue from an experiment or a search query;
 * 201 with the queue, its items, reviews (none) and progress.
 */
export const GET = handle(async () => Response.json({ queues: await getServerContext().reviews.list() }));

export const POST = handle(async (request: Request) => {
  const body = reviewQueueCreateRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "review queue"));
  return Response.json(await getServerContext().reviews.create(body), { status: 201 });
});
