import { z } from "zod";
import { annotationTagSchema, authorSchema } from "./annotations";
import { memoryStoreNameSchema } from "./memory-store";

/**
 * Review queues (docs/review-queues.md): a fixed list of items people review against a rubric, with
 * named reviewers, progress and agreement between reviewers (percent agreement and Cohen's κ, the
 * one implementation in lib/domain/agreement.ts).
 *
 * - A **single** queue shows one node per item (usually a reflection) and asks for a rubric label.
 *   A single queue of **verdicts** shows a judged trial's answer and asks pass/fail, blind to the
 *   LLM judge; each label is also the reviewer's grade of the trial on the judge page.
 * - A **pairwise** queue shows two arms' nodes for the same task side by side and asks which is
 *   better (`left`, `right` or `tie`); which arm is drawn on the left is randomised per item when the
 *   queue is built and recorded on the item (`leftArm`), so preferences are stored by arm, not side.
 *
 * A reviewer may also tag, comment (kept as an annotation on the node, with the queue as its origin)
 * and write a **correction**: a better reflection, saved as data (a memory store entry).
 */

/**
 * A rubric as recorded on a queue: the labels a reviewer chooses from, each with a short meaning.
 * Queues on record are read with this shape; a rubric a request brings is checked by
 * {@link rubricSchema}, which also wants each label id once.
 */
export const recordedRubricSchema = z.object({
  name: z.string().trim().min(1).max(80),
  /** What the reviewer is asked, e.g. "Does this reflection name a concrete, correct fix?" */
  question: z.string().trim().min(1).max(500),
  /** 2–7 labels, in the order the keys 1…n choose them. */
  labels: z.array(z.object({ id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,29}$/u), description: z.string().max(200) })).min(2).max(7),
});

/**
 * A rubric a queue is built with (single queues): `{ name, question, labels: [{ id, description }] }`,
 * 2–7 labels in key order, each id (lower-case letters, digits, `-`, `_`) used once — key *n* chooses
 * label *n*, and a review stores the id, so two labels with one id could not be told apart.
 */
export const rubricSchema = recordedRubricSchema.superRefine((rubric, context) => {
  const seen = new Map<string, number>();
  rubric.labels.forEach((label, index) => {
    const first = seen.get(label.id);
    if (first === undefined) seen.set(label.id, index);
    else context.addIssue({ code: "custom", path: ["labels", index, "id"], message: `each label id is used once: "${label.id}" is label ${first + 1} and label ${index + 1} (keys ${first + 1} and ${index + 1} would both choose it); give each label its own id` });
  });
});
export type Rubric = z.infer<typeof recordedRubricSchema>;

/**
 * A reviewer's name as a request gives it: trimmed, 1–60 characters, with no control characters and
 * no `<` or `>` — a name is an identifier in the export's `reviewer` column and the agreement table,
 * so it is plain text (e.g. `ann`, `Ada Lovelace`). Names on record are read with `authorSchema`.
 */
export const reviewerNameSchema = authorSchema.refine((name) => !/[\p{Cc}<>]/u.test(name), {
  message: "a reviewer's name is plain text: leave out control characters (tabs, line breaks) and < >, e.g. \"ann\" or \"Ada Lovelace\"",
});

/** The default rubric of a single queue of reflections. */
export const DEFAULT_REFLECTION_RUBRIC: Rubric = {
  name: "Reflection quality",
  question: "Does this reflection name the mistake and a concrete plan (an action or fact) for the next trial?",
  labels: [
    { id: "good", description: "names the mistake and a concrete plan" },
    { id: "vague", description: "right direction, but no concrete action or fact" },
    { id: "wrong", description: "misdiagnoses the failure or would mislead" },
  ],
};

/** The rubric of a pairwise queue (fixed: which of the two is better). */
export const PAIRWISE_RUBRIC: Rubric = {
  name: "Which reflection is better",
  question: "Which reflection would help the next trial more?",
  labels: [
    { id: "left", description: "the left one" },
    { id: "right", description: "the right one" },
    { id: "tie", description: "equally good or equally bad" },
  ],
};

/**
 * The rubric of a single queue of the LLM judge's verdicts (fixed): the reviewer grades the answer
 * themselves, blind to the judge, and the label is recorded as their grade of the trial, so the
 * judge page's agreement and Cohen's κ include it (docs/review-queues.md, "Calibrating the judge").
 */
export const VERDICT_RUBRIC: Rubric = {
  name: "Judge calibration",
  question: "Does this answer meet the task's rubric?",
  labels: [
    { id: "pass", description: "the answer meets the task's rubric" },
    { id: "fail", description: "the answer falls short of the task's rubric" },
  ],
};

/** What a single queue's items are: reflections (default) or the LLM judge's verdicts of judged trials. */
export const reviewItemSourceSchema = z.enum(["reflections", "verdicts"]);
export type ReviewItemSource = z.infer<typeof reviewItemSourceSchema>;

/** The memory store corrections go to unless a queue names another (created when first written). */
export const DEFAULT_CORRECTION_STORE = "gold-reflections";

/** A node under review: where it is and its text as it was when the queue was built. */
export const reviewNodeSchema = z.object({
  runId: z.string().min(1),
  branchId: z.string().min(1),
  /** The node's event id (graph node id). */
  eventId: z.string().min(1),
  kind: z.enum(["reflection", "thought", "action", "observation", "evaluation", "trial"]),
  trial: z.number().int().positive(),
  step: z.number().int().positive().nullable(),
  /** The experiment arm the run belongs to; null outside an experiment. */
  arm: z.string().nullable(),
  text: z.string(),
  /** Whether the trial after this reflection succeeded (null: no next trial, or not a reflection). */
  followedBySuccess: z.boolean().nullable(),
});
export type ReviewNode = z.infer<typeof reviewNodeSchema>;

/** One item of a queue. Single: `left` only. Pairwise: both, with the arm drawn on the left recorded. */
export const reviewItemSchema = z.object({
  id: z.string().min(1),
  queueId: z.string().min(1),
  /** Position in the queue, from 0. */
  position: z.number().int().nonnegative(),
  taskId: z.string(),
  left: reviewNodeSchema,
  right: reviewNodeSchema.nullable(),
  /** Pairwise: the arm shown on the left (randomised when the queue was built); null for single. */
  leftArm: z.string().nullable(),
  /**
   * A verdict item (queues of `items: "verdicts"`): the task the judged answer (`left.text`) was
   * written for. It holds no verdict: the judge's verdict reaches the reviewer only with their saved
   * review ({@link Review.judge}), so reviewing is blind. Absent on other items.
   */
  judged: z
    .object({
      taskTitle: z.string(),
      prompt: z.string(),
      /** The judge's pass threshold on the weighted score (0–1). */
      threshold: z.number(),
      judgeModelId: z.string(),
    })
    .optional(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** A queue's definition (its items are stored apart). */
export const reviewQueueSchema = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1).max(120),
  kind: z.enum(["single", "pairwise"]),
  rubric: recordedRubricSchema,
  reviewers: z.array(authorSchema).min(1).max(20),
  /** Where the items came from: an experiment (and arms), or a search query (lib/domain/search-query.ts). */
  source: z.object({
    experimentId: z.string().nullable(),
    /** Pairwise: exactly two arms; single: the arms included (empty = all). */
    arms: z.array(z.string()),
    query: z.string().nullable(),
    /** Single queues from an experiment: only reflections whose next trial failed were taken. */
    onlyFollowedByFailure: z.boolean().optional(),
    /** Single queues from an experiment: what the items are (absent: reflections). */
    items: reviewItemSourceSchema.optional(),
  }),
  /** The seed the pairwise sides were drawn with (so the randomisation is reproducible and on record). */
  seed: z.number().int(),
  /** ISO-8601. */
  createdAt: z.string(),
  createdBy: authorSchema,
  /** The memory store reviewers' corrections are written to (absent: {@link DEFAULT_CORRECTION_STORE}). */
  correctionStore: memoryStoreNameSchema.optional(),
});
export type ReviewQueue = z.infer<typeof reviewQueueSchema>;

/**
 * A review's tags: up to 20, each kept once in the order first given (`["loop", "loop"]` is
 * `["loop"]`), as a note's tags are, so the export does not show `loop;loop`.
 */
export const reviewTagsSchema = z
  .array(annotationTagSchema)
  .max(20)
  .default([])
  .transform((tags) => [...new Set(tags)]);

/** One reviewer's review of one item (saving again replaces it). */
export const reviewSchema = z.object({
  queueId: z.string().min(1),
  itemId: z.string().min(1),
  reviewer: authorSchema,
  /** A rubric label id (pairwise: `left` / `right` / `tie`, as shown on screen). */
  label: z.string().min(1),
  /** Pairwise: the preferred arm resolved from the side and the item's `leftArm` (`tie` for a tie); null for single. */
  preferredArm: z.string().nullable(),
  /** Each tag once, in the order first given. */
  tags: reviewTagsSchema,
  comment: z.string().max(10_000).default(""),
  /** A corrected reflection the reviewer wrote; null when none. */
  correction: z.string().max(10_000).nullable().default(null),
  /** ISO-8601. */
  reviewedAt: z.string(),
  /** The annotations the review's tags and comment were written as (edited when the review is saved again); absent when none. */
  annotationIds: z.array(z.string()).optional(),
  /** The memory-store entry the correction was written as; absent when none. */
  correctionEntryId: z.string().optional(),
  /**
   * A verdict item: the LLM judge's verdict and weighted score (0–1) of the trial, read from its
   * recorded `evaluation-end` when the label was saved as the reviewer's grade; absent on other items.
   */
  judge: z.object({ verdict: z.enum(["pass", "fail"]), score: z.number().min(0).max(1) }).optional(),
});
export type Review = z.infer<typeof reviewSchema>;

/** Progress and agreement of a queue. */
export interface QueueProgress {
  items: number;
  /** Reviews per reviewer. */
  byReviewer: Array<{ reviewer: string; reviewed: number }>;
  /** Items every reviewer has reviewed. */
  complete: number;
  /**
   * Agreement of each pair of reviewers on the items both reviewed: percent agreement and Cohen's κ
   * over the rubric labels (null κ with a reason when undefined).
   */
  agreement: Array<{ a: string; b: string; n: number; percentAgreement: number | null; kappa: number | null; kappaUndefinedReason: string | null }>;
}
