import type { Metadata } from "next";
import { ReviewQueueList } from "@/components/reviews/review-queue-list";

export const metadata: Metadata = { title: "Reviews" };

/** `/reviews`: review queues with their progress, and the form that builds one; fetched client-side through lib/query. */
export default function ReviewsPage() {
  return <ReviewQueueList />;
}
