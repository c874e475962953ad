import { z } from "zod";
import { memoryStoreNameSchema } from "./memory-store";
import { reviewerNameSchema, reviewTagsSchema, reviewItemSchema, reviewItemSourceSchema, reviewQueueSchema, reviewSchema, rubricSchema, type QueueProgress, type Review, type ReviewItem, type ReviewQueue } from "./review-queue";

/**
 * The HTTP and CLI requests of review queues (docs/review-queues.md): building a queue from an
 * experiment or a search query, saving a review, and what the API answers.
 */

/**
 * `POST /api/reviews` body: a queue built from an experiment (`experimentId`; single or pairwise)
 * or from a search query (`query`; single only) — exactly one of the two.
 */
export const reviewQueueCreateRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    kind: z.enum(["single", "pairwise"]).default("single"),
    experimentId: z.string().trim().min(1).optional(),
    /** Pairwise: exactly two arm labels; single: the arms to take reflections from (empty = all). */
    arms: z.array(z.string().trim().min(1)).max(8).default([]),
    /**
     * Single from an experiment: `reflections` (default), or `verdicts` — one item per trial the LLM
     * judge judged, graded pass/fail with the fixed rubric `VERDICT_RUBRIC` (review-queue.ts); each label is also the
     * reviewer's grade of the trial on the judge page.
     */
    items: reviewItemSourceSchema.default("reflections"),
    /** Single from an experiment: only reflections whose next trial failed (the reflection did not help). */
    onlyFollowedByFailure: z.boolean().default(false),
    /** A search query (docs/search.md): each matched trial's reflection becomes an item. */
    query: z.string().trim().min(1).max(2000).optional(),
    reviewers: z.array(reviewerNameSchema).min(1, "name at least one reviewer").max(20),
    /**
     * Single queues: the rubric, `{ name, question, labels: [{ id, description }] }` with 2–7 labels,
     * each id once (default: the reflection-quality rubric). Pairwise queues always use the pairwise rubric.
     */
    rubric: rubricSchema.optional(),
    /** Who builds the queue (default: the first reviewer). */
    createdBy: reviewerNameSchema.optional(),
    /** The seed of the pairwise sides (default: drawn at random and stored on the queue). */
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    /** Where corrections go (default gold-reflections). */
    correctionStore: memoryStoreNameSchema.optional(),
  })
  .superRefine((request, context) => {
    if ((request.experimentId === undefined) === (request.query === undefined)) {
      context.addIssue({ code: "custom", path: ["experimentId"], message: "build a queue from an experiment (experimentId) or from a search query (query), one of the two" });
    }
    if (request.kind === "pairwise" && request.query !== undefined) context.addIssue({ code: "custom", path: ["kind"], message: "a pairwise queue is built from an experiment's two arms, not from a search query" });
    if (request.kind === "pairwise" && request.onlyFollowedByFailure) context.addIssue({ code: "custom", path: ["onlyFollowedByFailure"], message: "\"only reflections followed by a failure\" applies to single queues; a pairwise queue takes every task and trial both arms reflected on" });
    if (request.kind === "pairwise" && new Set(request.arms).size !== 2) context.addIssue({ code: "custom", path: ["arms"], message: "a pairwise queue compares exactly two different arms (e.g. arms: [\"A\", \"B\"])" });
    if (request.items === "verdicts") {
      if (request.kind === "pairwise") context.addIssue({ code: "custom", path: ["items"], message: "a queue of the judge's verdicts is a single queue (kind single): each item is one judged trial" });
      if (request.query !== undefined) context.addIssue({ code: "custom", path: ["items"], message: "a queue of the judge's verdicts is built from an experiment (experimentId), not from a search query" });
      if (request.onlyFollowedByFailure) context.addIssue({ code: "custom", path: ["onlyFollowedByFailure"], message: "\"only reflections followed by a failure\" applies to queues of reflections, not of the judge's verdicts" });
      if (request.rubric !== undefined) context.addIssue({ code: "custom", path: ["rubric"], message: "a queue of the judge's verdicts has a fixed rubric (pass / fail); leave rubric out" });
    }
    if (new Set(request.reviewers).size !== request.reviewers.length) context.addIssue({ code: "custom", path: ["reviewers"], message: "each reviewer is named once" });
  });
export type ReviewQueueCreateRequest = z.input<typeof reviewQueueCreateRequestSchema>;

/** `POST /api/reviews/:queueId/reviews` body: one reviewer's review of one item (saving again replaces it). */
export const reviewSaveRequestSchema = z.object({
  itemId: z.string().min(1),
  reviewer: reviewerNameSchema,
  /** A rubric label id (pairwise: left / right / tie as shown). */
  label: z.string().min(1),
  /** Each tag once, in the order first given (repeats are dropped). */
  tags: reviewTagsSchema,
  comment: z.string().max(10_000).default(""),
  /** A corrected reflection; empty or null: none. */
  correction: z.string().max(10_000).nullable().default(null),
});
export type ReviewSaveRequest = z.input<typeof reviewSaveRequestSchema>;

/** A queue as listed, with its progress. */
export interface ReviewQueueListItem {
  queue: ReviewQueue;
  progress: QueueProgress;
}

/** `GET /api/reviews/:queueId`. */
export interface ReviewQueueDetail {
  queue: ReviewQueue;
  items: ReviewItem[];
  reviews: Review[];
  progress: QueueProgress;
}

/** The export formats of a queue (`GET /api/reviews/:queueId/export?format=`). */
export const reviewExportQuerySchema = z.object({ format: z.enum(["csv", "json"]).default("csv") }).strict();
export type ReviewExportFormat = z.infer<typeof reviewExportQuerySchema>["format"];

/** zod twin of {@link QueueProgress} (what the pages parse). */
export const queueProgressSchema = z.object({
  items: z.number().int().nonnegative(),
  byReviewer: z.array(z.object({ reviewer: z.string(), reviewed: z.number().int().nonnegative() })),
  complete: z.number().int().nonnegative(),
  agreement: z.array(
    z.object({ a: z.string(), b: z.string(), n: z.number().int().nonnegative(), percentAgreement: z.number().nullable(), kappa: z.number().nullable(), kappaUndefinedReason: z.string().nullable() }),
  ),
}) satisfies z.ZodType<QueueProgress>;

/** `GET /api/reviews` answer. */
export const reviewQueueListResponseSchema = z.object({ queues: z.array(z.object({ queue: reviewQueueSchema, progress: queueProgressSchema })) });
export type ReviewQueueListResponse = z.infer<typeof reviewQueueListResponseSchema>;

/** `GET /api/reviews/:queueId` (and `POST /api/reviews`) answer. */
export const reviewQueueDetailSchema = z.object({ queue: reviewQueueSchema, items: z.array(reviewItemSchema), reviews: z.array(reviewSchema), progress: queueProgressSchema });
