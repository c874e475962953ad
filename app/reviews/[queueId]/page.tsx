import type { Metadata } from "next";
import { ReviewSession } from "@/components/reviews/review-session";
import { ensureReviewQueue } from "@/lib/server/page-lookup";

export const metadata: Metadata = { title: "Review queue" };

/** `/reviews/:queueId`: review a queue's items one at a time with keys; progress, agreement, export. */
export default async function ReviewQueuePage({ params }: { params: Promise<{ queueId: string }> }) {
  const { queueId } = await params;
  await ensureReviewQueue(queueId);
  return <ReviewSession queueId={queueId} />;
}
