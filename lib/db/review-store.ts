import type { Review, ReviewItem, ReviewQueue } from "@/lib/domain/review-queue";

/**
 * Storage of review queues, their items and reviews (lib/domain/review-queue.ts; tables
 * `review_queues`, `review_items`, `reviews`). Adapters: SQLite, in-memory and PostgreSQL; one
 * contract suite (tests/db/review-store-contract.ts).
 */
export interface ReviewStore {
  /** Stores a queue with its items, atomically. */
  createQueue(queue: ReviewQueue, items: readonly ReviewItem[]): Promise<void>;
  /** Newest first. */
  listQueues(): Promise<ReviewQueue[]>;
  getQueue(queueId: string): Promise<ReviewQueue | null>;
  /** By `position`. */
  listItems(queueId: string): Promise<ReviewItem[]>;
  /**
   * Stores a review, replacing the same reviewer's review of the same item.
   * @throws AppError("not-found") when the queue has no such item.
   */
  saveReview(review: Review): Promise<Review>;
  /** Every review of a queue, by item position then reviewer. */
  listReviews(queueId: string): Promise<Review[]>;
}

/** Sort order of {@link ReviewStore.listQueues}: newest `createdAt` first, then id. */
export function compareQueues(a: ReviewQueue, b: ReviewQueue): number {
  return b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
}

/** Sort order of {@link ReviewStore.listReviews}: by the item's position (`positions`: item id → position), then reviewer. */
export function compareReviews(a: Review, b: Review, positions: ReadonlyMap<string, number>): number {
  return (positions.get(a.itemId) ?? 0) - (positions.get(b.itemId) ?? 0) || a.reviewer.localeCompare(b.reviewer);
}
