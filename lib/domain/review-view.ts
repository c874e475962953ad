import { z } from "zod";
import { reviewerNameSchema, reviewItemSchema, reviewNodeSchema, reviewQueueSchema, reviewSchema, type ReviewItem, type ReviewNode } from "./review-queue";
import { queueProgressSchema, type ReviewQueueDetail } from "./review-requests";

/**
 * One reviewer's view of a queue (`GET /api/reviews/:queueId?reviewer=<name>`, what the review page
 * polls): the page asks the server only for what that reviewer may see. On an item they have not
 * reviewed yet (docs/review-queues.md, "Blinding"): the arms (`arm`, `leftArm`) and whether the next
 * trial succeeded (`followedBySuccess`) are null, and on pairwise and verdict items so are the node's
 * run, branch and event ids (the run page names the arm and shows the verdict; a review is saved by
 * item id). Single reflection items keep the ids: the page links the trajectory from the start, as
 * the context a reflection is judged in. Other reviewers' reviews are left out (their
 * counts and the agreement stay in `progress`), so a `judge` verdict appears only on this reviewer's
 * own reviews. Without accounts (embedded mode) this guards against being swayed, not against a
 * reviewer who reads the full detail on purpose.
 */

/** A node as a reviewer's view gives it: arm and the next trial's outcome null until reviewed, and the ids where the page hides the link. */
export const reviewNodeViewSchema = reviewNodeSchema.extend({
  runId: z.string().min(1).nullable(),
  branchId: z.string().min(1).nullable(),
  eventId: z.string().min(1).nullable(),
});
export type ReviewNodeInView = z.infer<typeof reviewNodeViewSchema>;

/** An item as a reviewer's view gives it (a full {@link ReviewItem} is one too). */
export const reviewItemViewSchema = reviewItemSchema.extend({ left: reviewNodeViewSchema, right: reviewNodeViewSchema.nullable() });
export type ReviewItemInView = z.infer<typeof reviewItemViewSchema>;

/** `GET /api/reviews/:queueId` answer as the page reads it: the full detail or one reviewer's view. */
export const reviewQueueViewSchema = z.object({ queue: reviewQueueSchema, items: z.array(reviewItemViewSchema), reviews: z.array(reviewSchema), progress: queueProgressSchema });
export type ReviewQueueView = z.infer<typeof reviewQueueViewSchema>;

function blindNode(node: ReviewNode, hideIds: boolean): ReviewNodeInView {
  const blind = { ...node, arm: null, followedBySuccess: null };
  return hideIds ? { ...blind, runId: null, branchId: null, eventId: null } : blind;
}

/**
 * The view of `reviewer` (null: nobody picked yet, so every item is blinded and no review is given).
 * Pure: reads the full detail, returns a new object.
 */
export function reviewerView(detail: ReviewQueueDetail, reviewer: string | null): ReviewQueueView {
  const reviews = reviewer === null ? [] : detail.reviews.filter((review) => review.reviewer === reviewer);
  const reviewed = new Set(reviews.map((review) => review.itemId));
  const items = detail.items.map((item: ReviewItem): ReviewItemInView => {
    if (reviewed.has(item.id)) return item;
    const hideIds = detail.queue.kind === "pairwise" || item.judged !== undefined;
    return { ...item, leftArm: null, left: blindNode(item.left, hideIds), right: item.right ? blindNode(item.right, hideIds) : null };
  });
  return { queue: detail.queue, items, reviews, progress: detail.progress };
}

/**
 * `GET /api/reviews/:queueId` query: `reviewer=<name>` asks for that reviewer's view, `reviewer=`
 * (empty) for the view of nobody yet (every item blinded, no reviews: the page before a name is
 * picked); without `reviewer` the full detail is returned (the export and tools read it).
 */
export const reviewQueueViewQuerySchema = z.object({ reviewer: z.union([z.literal(""), reviewerNameSchema]).optional() }).strict();
