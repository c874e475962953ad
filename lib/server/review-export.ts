import { stringify } from "csv-stringify/sync";
import type { ReviewQueueDetail } from "@/lib/domain/review-requests";

/** The CSV columns of a queue's export, in order: one row per review. */
export const REVIEW_CSV_COLUMNS = [
  "queue_id",
  "queue_name",
  "kind",
  /** The item's number as the page shows it ("Item 1"): 1-based. */
  "item",
  "task_id",
  /** Single: the reviewed node's arm; pairwise: both arms, `A|B` in the queue's order. */
  "arms",
  "left_arm",
  "right_arm",
  "label",
  "preferred_arm",
  "reviewer",
  /** Tags joined by `;`. */
  "tags",
  "comment",
  "correction",
  "reviewed_at",
  "left_run_id",
  "left_event_id",
  "right_run_id",
  "right_event_id",
] as const;

/**
 * A queue's reviews as CSV (csv-stringify; RFC 4180 quoting), one row per review in item order then
 * reviewer, with {@link REVIEW_CSV_COLUMNS}. Pairwise rows carry the arms shown left and right and
 * the preferred arm (`tie` for a tie); single rows leave those empty.
 *
 * Reviewers write comments, tags and corrections, and the file is opened in spreadsheets: a text cell
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so it is read as
 * text, not run as a formula (csv-stringify's `escape_formulas`, the OWASP "CSV injection" advice).
 */
export function reviewsCsv(detail: ReviewQueueDetail): string {
  const items = new Map(detail.items.map((item) => [item.id, item]));
  const rows = detail.reviews.flatMap((review) => {
    const item = items.get(review.itemId);
    if (!item) return [];
    const pairwise = detail.queue.kind === "pairwise";
    return [
      {
        queue_id: detail.queue.id,
        queue_name: detail.queue.name,
        kind: detail.queue.kind,
        item: item.position + 1,
        task_id: item.taskId,
        arms: pairwise ? detail.queue.source.arms.join("|") : (item.left.arm ?? ""),
        left_arm: pairwise ? (item.left.arm ?? "") : "",
        right_arm: pairwise ? (item.right?.arm ?? "") : "",
        label: review.label,
        preferred_arm: review.preferredArm ?? "",
        reviewer: review.reviewer,
        tags: review.tags.join(";"),
        comment: review.comment,
        correction: review.correction ?? "",
        reviewed_at: review.reviewedAt,
        left_run_id: item.left.runId,
        left_event_id: item.left.eventId,
        right_run_id: item.right?.runId ?? "",
        right_event_id: item.right?.eventId ?? "",
      },
    ];
  });
  return stringify(rows, { header: true, columns: [...REVIEW_CSV_COLUMNS], escape_formulas: true });
}

/** A queue's export as JSON: the queue, its items, every review and the progress with agreement. */
export function reviewsJson(detail: ReviewQueueDetail): string {
  return `${JSON.stringify({ queue: detail.queue, items: detail.items, reviews: detail.reviews, progress: detail.progress }, null, 2)}\n`;
}
