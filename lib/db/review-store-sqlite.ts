import { eq } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { AppError } from "@/lib/domain/errors";
import { reviewItemSchema, reviewQueueSchema, reviewSchema, type Review, type ReviewItem, type ReviewQueue } from "@/lib/domain/review-queue";
import { compareQueues, compareReviews, type ReviewStore } from "./review-store";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link ReviewStore}: tables `review_queues`, `review_items` and `reviews` of the app's
 * database file (its own connection, WAL mode; migrations applied on open). Each row keeps its
 * queue, item or review as JSON (`record`), validated on the way in and out; a review of an item
 * already reviewed by the same reviewer replaces the row (upsert on the unique queue/item/reviewer index).
 */
export class SqliteReviewStore implements ReviewStore {
  private readonly client: SqliteConnection;
  private readonly db: Db;

  /** Opens (creating if needed) the database at `file`; `:memory:` gives a private database (tests). */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file);
    this.db = drizzleOver(this.client, schema);
    migrate(this.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
  }

  /** Closes the connection. */
  close(): void {
    this.client.close();
  }

  async createQueue(queue: ReviewQueue, items: readonly ReviewItem[]): Promise<void> {
    const valid = reviewQueueSchema.parse(queue);
    const validItems = items.map((item) => reviewItemSchema.parse(item));
    const foreign = validItems.find((item) => item.queueId !== valid.id);
    if (foreign) throw new AppError("invalid-input", `Item ${foreign.id} belongs to queue ${foreign.queueId}, not ${valid.id}.`);
    if (this.db.select({ id: schema.reviewQueues.id }).from(schema.reviewQueues).where(eq(schema.reviewQueues.id, valid.id)).get()) {
      throw new AppError("conflict", `A review queue ${valid.id} exists already.`);
    }
    this.client.transaction(() => {
      this.db.insert(schema.reviewQueues).values({ id: valid.id, createdAt: valid.createdAt, record: JSON.stringify(valid) }).run();
      for (const item of validItems) {
        this.db.insert(schema.reviewItems).values({ id: item.id, queueId: item.queueId, position: item.position, record: JSON.stringify(item) }).run();
      }
    })();
  }

  async listQueues(): Promise<ReviewQueue[]> {
    return this.db
      .select()
      .from(schema.reviewQueues)
      .all()
      .map((row) => reviewQueueSchema.parse(JSON.parse(row.record)))
      .sort(compareQueues);
  }

  async getQueue(queueId: string): Promise<ReviewQueue | null> {
    const row = this.db.select().from(schema.reviewQueues).where(eq(schema.reviewQueues.id, queueId)).get();
    return row ? reviewQueueSchema.parse(JSON.parse(row.record)) : null;
  }

  async listItems(queueId: string): Promise<ReviewItem[]> {
    return this.db
      .select()
      .from(schema.reviewItems)
      .where(eq(schema.reviewItems.queueId, queueId))
      .orderBy(schema.reviewItems.position)
      .all()
      .map((row) => reviewItemSchema.parse(JSON.parse(row.record)));
  }

  async saveReview(review: Review): Promise<Review> {
    const valid = reviewSchema.parse(review);
    const item = this.db.select({ queueId: schema.reviewItems.queueId }).from(schema.reviewItems).where(eq(schema.reviewItems.id, valid.itemId)).get();
    if (!item || item.queueId !== valid.queueId) throw new AppError("not-found", `Review queue ${valid.queueId} has no item ${valid.itemId}.`);
    const t = schema.reviews;
    const record = JSON.stringify(valid);
    this.db
      .insert(t)
      .values({ queueId: valid.queueId, itemId: valid.itemId, reviewer: valid.reviewer, reviewedAt: valid.reviewedAt, record })
      .onConflictDoUpdate({ target: [t.queueId, t.itemId, t.reviewer], set: { reviewedAt: valid.reviewedAt, record } })
      .run();
    return valid;
  }

  async listReviews(queueId: string): Promise<Review[]> {
    const positions = new Map(
      this.db
        .select({ id: schema.reviewItems.id, position: schema.reviewItems.position })
        .from(schema.reviewItems)
        .where(eq(schema.reviewItems.queueId, queueId))
        .all()
        .map((row) => [row.id, row.position]),
    );
    return this.db
      .select()
      .from(schema.reviews)
      .where(eq(schema.reviews.queueId, queueId))
      .all()
      .map((row) => reviewSchema.parse(JSON.parse(row.record)))
      .sort((a, b) => compareReviews(a, b, positions));
  }
}
