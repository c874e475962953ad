import { nominalAgreement } from "./agreement";
import type { QueueProgress, Review, ReviewQueue } from "./review-queue";

/**
 * A queue's progress and the agreement of each pair of its reviewers (docs/review-queues.md):
 * on the items both reviewed, percent agreement and Cohen's κ (lib/domain/agreement.ts) over the
 * rubric label for a single queue and over the preferred **arm** for a pairwise one (the sides were
 * randomised per item, so "left" from one reviewer and "left" from another need not be the same arm).
 */
export function queueProgress(queue: Pick<ReviewQueue, "kind" | "reviewers">, itemIds: readonly string[], reviews: readonly Review[]): QueueProgress {
  const known = new Set(itemIds);
  const byReviewer = new Map<string, Map<string, string>>(queue.reviewers.map((reviewer) => [reviewer, new Map()]));
  for (const review of reviews) {
    if (!known.has(review.itemId)) continue;
    const choice = queue.kind === "pairwise" ? (review.preferredArm ?? review.label) : review.label;
    let mine = byReviewer.get(review.reviewer);
    if (!mine) byReviewer.set(review.reviewer, (mine = new Map()));
    mine.set(review.itemId, choice);
  }
  const reviewers = [...byReviewer.keys()];
  const complete = itemIds.filter((id) => queue.reviewers.every((reviewer) => byReviewer.get(reviewer)?.has(id))).length;
  const agreement: QueueProgress["agreement"] = [];
  for (const [i, a] of reviewers.entries()) {
    for (const b of reviewers.slice(i + 1)) {
      const ofA = byReviewer.get(a)!;
      const ofB = byReviewer.get(b)!;
      const pairs = itemIds.flatMap((id) => (ofA.has(id) && ofB.has(id) ? [{ a: ofA.get(id)!, b: ofB.get(id)! }] : []));
      const result = nominalAgreement(pairs, "items");
      agreement.push({ a, b, n: result.n, percentAgreement: result.percentAgreement, kappa: result.kappa, kappaUndefinedReason: result.n === 0 ? "no item reviewed by both yet" : result.kappaUndefinedReason });
    }
  }
  return { items: itemIds.length, byReviewer: reviewers.map((reviewer) => ({ reviewer, reviewed: byReviewer.get(reviewer)!.size })), complete, agreement };
}
