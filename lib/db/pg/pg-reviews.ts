import { eq } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import { reviewItemSchema, reviewQueueSchema, reviewSchema, type Review, type ReviewItem, type ReviewQueue } from "@/lib/domain/review-queue";
import { compareQueues, compareReviews, type ReviewStore } from "../review-store";
import type { PgDb } from "./database";
import * as schema from "./schema";

type Ready = () => Promise<void>;
const noWait: Ready = async () => undefined;

/**
 * The PostgreSQL {@link ReviewStore}: the same tables and rules as the SQLite adapter
 * (lib/db/review-store-sqlite.ts), `record` as jsonb; a queue and its items are written in one
 * transaction; a review upserts on the unique (queue, item, reviewer) index.
 */
export class PgReviewStore implements ReviewStore {
  constructor(private readonly db: PgDb, private readonly ready: Ready = noWait) {}

  async createQueue(queue: ReviewQueue, items: readonly ReviewItem[]): Promise<void> {
    await this.ready();
    const valid = reviewQueueSchema.parse(queue);
    const validItems = items.map((item) => reviewItemSchema.parse(item));
    const foreign = validItems.find((item) => item.queueId !== valid.id);
    if (foreign) throw new AppError("invalid-input", `Item ${foreign.id} belongs to queue ${foreign.queueId}, not ${valid.id}.`);
    await this.db.transaction(async (tx) => {
      const added = await tx.insert(schema.reviewQueues).values({ id: valid.id, createdAt: valid.createdAt, record: valid }).onConflictDoNothing().returning({ id: schema.reviewQueues.id });
      if (added.length === 0) throw new AppError("conflict", `A review queue ${valid.id} exists already.`);
      if (validItems.length > 0) await tx.insert(schema.reviewItems).values(validItems.map((item) => ({ id: item.id, queueId: item.queueId, position: item.position, record: item })));
    });
  }

  async listQueues(): Promise<ReviewQueue[]> {
    await this.ready();
    return (await this.db.select().from(schema.reviewQueues)).map((row) => reviewQueueSchema.parse(row.record)).sort(compareQueues);
  }

  async getQueue(queueId: string): Promise<ReviewQueue | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.reviewQueues).where(eq(schema.reviewQueues.id, queueId));
    return row ? reviewQueueSchema.parse(row.record) : null;
  }

  async listItems(queueId: string): Promise<ReviewItem[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.reviewItems).where(eq(schema.reviewItems.queueId, queueId)).orderBy(schema.reviewItems.position);
    return rows.map((row) => reviewItemSchema.parse(row.record));
  }

  async saveReview(review: Review): Promise<Review> {
    await this.ready();
    const valid = reviewSchema.parse(review);
    const [item] = await this.db.select({ queueId: schema.reviewItems.queueId }).from(schema.reviewItems).where(eq(schema.reviewItems.id, valid.itemId));
    if (!item || item.queueId !== valid.queueId) throw new AppError("not-found", `Review queue ${valid.queueId} has no item ${valid.itemId}.`);
    const t = schema.reviews;
    await this.db
      .insert(t)
      .values({ queueId: valid.queueId, itemId: valid.itemId, reviewer: valid.reviewer, reviewedAt: valid.reviewedAt, record: valid })
      .onConflictDoUpdate({ target: [t.queueId, t.itemId, t.reviewer], set: { reviewedAt: valid.reviewedAt, record: valid } });
    return valid;
  }

  async listReviews(queueId: string): Promise<Review[]> {
    await this.ready();
    const items = await this.db.select({ id: schema.reviewItems.id, position: schema.reviewItems.position }).from(schema.reviewItems).where(eq(schema.reviewItems.queueId, queueId));
    const positions = new Map(items.map((row) => [row.id, row.position]));
    const rows = await this.db.select().from(schema.reviews).where(eq(schema.reviews.queueId, queueId));
    return rows.map((row) => reviewSchema.parse(row.record)).sort((a, b) => compareReviews(a, b, positions));
  }
}
