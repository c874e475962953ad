import { AppError } from "@/lib/domain/errors";
import type { Review, ReviewItem, ReviewQueue } from "@/lib/domain/review-queue";
import { compareQueues, compareReviews, type ReviewStore } from "./review-store";

/**
 * The in-memory {@link ReviewStore} (tests, `createServerContext({ store })`). Hands out copies,
 * so a caller changing a returned queue, item or review does not change the store.
 */
export class MemoryReviewStore implements ReviewStore {
  private readonly queues = new Map<string, ReviewQueue>();
  private readonly items = new Map<string, ReviewItem[]>();
  private readonly reviews = new Map<string, Review>();

  async createQueue(queue: ReviewQueue, items: readonly ReviewItem[]): Promise<void> {
    if (this.queues.has(queue.id)) throw new AppError("conflict", `A review queue ${queue.id} exists already.`);
    const foreign = items.find((item) => item.queueId !== queue.id);
    if (foreign) throw new AppError("invalid-input", `Item ${foreign.id} belongs to queue ${foreign.queueId}, not ${queue.id}.`);
    this.queues.set(queue.id, structuredClone(queue));
    this.items.set(queue.id, structuredClone([...items]).sort((a, b) => a.position - b.position));
  }

  async listQueues(): Promise<ReviewQueue[]> {
    return [...this.queues.values()].map((queue) => structuredClone(queue)).sort(compareQueues);
  }

  async getQueue(queueId: string): Promise<ReviewQueue | null> {
    const queue = this.queues.get(queueId);
    return queue ? structuredClone(queue) : null;
  }

  async listItems(queueId: string): Promise<ReviewItem[]> {
    return structuredClone(this.items.get(queueId) ?? []);
  }

  async saveReview(review: Review): Promise<Review> {
    if (!(this.items.get(review.queueId) ?? []).some((item) => item.id === review.itemId)) {
      throw new AppError("not-found", `Review queue ${review.queueId} has no item ${review.itemId}.`);
    }
    this.reviews.set(`${review.queueId}\0${review.itemId}\0${review.reviewer}`, structuredClone(review));
    return structuredClone(review);
  }

  async listReviews(queueId: string): Promise<Review[]> {
    const positions = new Map((this.items.get(queueId) ?? []).map((item) => [item.id, item.position]));
    return [...this.reviews.values()]
      .filter((review) => review.queueId === queueId)
      .map((review) => structuredClone(review))
      .sort((a, b) => compareReviews(a, b, positions));
  }
}
