// Over 400 lines: the review use cases (queues from an experiment, a search or the judge's verdicts; saving a review with its note, correction and grade; the reviewer's view) share one set of dependencies and one item model.
import { randomInt, randomUUID } from "node:crypto";
import { unsafeUniformIntDistribution, xoroshiro128plus } from "pure-rand";
import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { ReviewStore } from "@/lib/db/review-store";
import type { RunStore } from "@/lib/db/store";
import type { AnnotationContent } from "@/lib/domain/annotations";
import { AppError } from "@/lib/domain/errors";
import { parseCellArmKey } from "@/lib/domain/experiment-cells";
import { foldRun } from "@/lib/domain/fold-run";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import type { Strategy } from "@/lib/domain/config";
import { reflectionOutcomes, type ReflectionOutcome } from "@/lib/domain/reflection-outcomes";
import { queueProgress } from "@/lib/domain/review-progress";
import { DEFAULT_CORRECTION_STORE, DEFAULT_REFLECTION_RUBRIC, PAIRWISE_RUBRIC, VERDICT_RUBRIC, type QueueProgress, type Review, type ReviewItem, type ReviewNode, type ReviewQueue } from "@/lib/domain/review-queue";
import { reviewQueueCreateRequestSchema, reviewSaveRequestSchema, type ReviewQueueCreateRequest, type ReviewQueueDetail, type ReviewQueueListItem, type ReviewSaveRequest } from "@/lib/domain/review-requests";
import type { TrialSearchResult } from "@/lib/domain/search-query";
import { reviewerView, type ReviewQueueView } from "@/lib/domain/review-view";
import { strategyBehaviour } from "@/lib/domain/strategies";
import type { ExperimentService } from "./experiment-service";
import type { JudgeGradeService } from "./judge-grade-service";
import type { MemoryStoreService } from "./memory-store-service";
import { verdictItems } from "./review-verdict-items";

/** The most items one queue holds (a review session, not a data set). */
export const MAX_QUEUE_ITEMS = 2000;

/** What the review service needs from the composition root. */
export interface ReviewServiceDeps {
  reviews: ReviewStore;
  runs: RunStore;
  experiments: ExperimentService;
  memoryStores: MemoryStoreService;
  /** Where tags and comments become annotations on the reviewed node; null: they stay on the review only. */
  annotations: AnnotationStore | null;
  /** Search across runs (docs/search.md); absent: queues from a query are refused. */
  searchTrials?: ((query: string) => Promise<TrialSearchResult>) | null;
  /** The judge page's grades: queues of the judge's verdicts find judged trials and record labels as grades through it; absent: such queues are refused. */
  judgeGrades?: JudgeGradeService | null;
  now?: () => Date;
}

/** A reflection found in a run, with where it sits in the experiment. */
export interface FoundReflection {
  taskId: string;
  arm: string | null;
  repetition: number;
  node: ReviewNode;
}

/**
 * Review queues (docs/review-queues.md): builds a queue from an experiment's reflections (single or
 * pairwise, the pairwise sides drawn with a seeded PRNG — pure-rand's xoroshiro128+ — and recorded)
 * or the LLM judge's verdicts of its judged trials (a label is also the reviewer's grade on the judge
 * page), or from a search query's trials; saves reviews (tags and comment as an annotation on the node,
 * a correction as a memory-store entry); reports progress and agreement; reads logs with `foldRun`.
 */
export class ReviewService {
  private readonly now: () => Date;

  constructor(private readonly deps: ReviewServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Every queue, newest first, with its progress. */
  async list(): Promise<ReviewQueueListItem[]> {
    const queues = await this.deps.reviews.listQueues();
    return Promise.all(queues.map(async (queue) => ({ queue, progress: (await this.detail(queue.id, queue)).progress })));
  }

  /**
   * A queue with its items, reviews and progress.
   * @throws AppError("not-found") for an unknown queue.
   */
  async detail(queueId: string, known?: ReviewQueue): Promise<ReviewQueueDetail> {
    const queue = known ?? (await this.queue(queueId));
    const [items, reviews] = await Promise.all([this.deps.reviews.listItems(queue.id), this.deps.reviews.listReviews(queue.id)]);
    return { queue, items, reviews, progress: this.progressOf(queue, items, reviews) };
  }

  /**
   * One reviewer's view of a queue (lib/domain/review-view.ts): what the review page may show them;
   * null: nobody picked yet.
   * @throws AppError("not-found") for an unknown queue; AppError("invalid-input") for a name not among the queue's reviewers.
   */
  async viewFor(queueId: string, reviewer: string | null): Promise<ReviewQueueView> {
    const detail = await this.detail(queueId);
    if (reviewer !== null && !detail.queue.reviewers.includes(reviewer)) {
      throw new AppError("invalid-input", `${reviewer} is not a reviewer of this queue; its reviewers are ${detail.queue.reviewers.join(", ")}.`);
    }
    return reviewerView(detail, reviewer);
  }

  /** Progress and agreement of a queue (lib/domain/review-progress.ts). */
  progressOf(queue: ReviewQueue, items: readonly ReviewItem[], reviews: readonly Review[]): QueueProgress {
    return queueProgress(queue, items.map((item) => item.id), reviews);
  }

  /**
   * Builds and stores a queue (lib/domain/review-requests.ts).
   * With no arm named, a queue of reflections takes every arm that has reflections (an arm whose
   * strategy never reflects, e.g. `none`, is left out of `source.arms`).
   * @throws AppError("invalid-input") for unknown arms, a named arm without reflections (saying whether
   *   its strategy never reflects or it has no failed trial yet), an experiment with no reflection in
   *   any arm, an experiment without judged trials
   *   for a queue of verdicts, a query with no reflected trial, or when
   *   search is not available; AppError("not-found") for an unknown experiment; ZodError for a malformed request.
   */
  async create(input: ReviewQueueCreateRequest): Promise<ReviewQueueDetail> {
    const request = reviewQueueCreateRequestSchema.parse(input);
    const id = `rq-${randomUUID()}`;
    const seed = request.seed ?? randomInt(0, 2 ** 31 - 1);
    let items: Array<Omit<ReviewItem, "id" | "queueId" | "position">>;
    let arms = request.arms;
    let name = request.name;
    if (request.experimentId !== undefined) {
      const record = await this.deps.experiments.get(request.experimentId);
      if (record.damaged) throw new AppError("invalid-input", `Experiment ${request.experimentId} cannot be read whole (${record.damaged}); build the queue from another experiment.`);
      const labels = record.definition.arms.map((arm) => arm.label);
      const unknown = arms.filter((arm) => !labels.includes(arm));
      if (unknown.length > 0) throw new AppError("invalid-input", `Experiment ${record.id} has no arm ${unknown.map((arm) => `"${arm}"`).join(", ")}; its arms are ${labels.map((arm) => `"${arm}"`).join(", ")}.`);
      if (arms.length === 0) arms = labels;
      if (request.items === "verdicts") {
        if (!this.deps.judgeGrades) throw new AppError("invalid-input", "The judge's grades are not available on this server, so a queue of verdicts cannot be built; build a queue of reflections instead.");
        items = await verdictItems({ runs: this.deps.runs, judgeGrades: this.deps.judgeGrades }, { id: record.id, labels, arms, taskOrder: record.definition.taskIds });
        name ??= `${record.definition.name}: judge's verdicts of ${arms.join(", ")}`;
      } else {
        const named = request.arms.length > 0;
        const found = await this.experimentReflections(record.id, labels, arms, record.definition.taskIds);
        const reflecting = (arm: string) => found.some((reflection) => reflection.arm === arm);
        const strategyOf = (arm: string) => record.definition.arms.find((entry) => entry.label === arm)!.strategy;
        if (named) {
          for (const arm of arms) if (!reflecting(arm)) throw new AppError("invalid-input", noReflectionsMessage(arm, strategyOf(arm)));
        } else {
          // "No arm named" means every arm that reflected: an arm whose strategy never reflects (ReAct, `none`) is left out, not refused.
          arms = arms.filter(reflecting);
          if (arms.length === 0) {
            const byStrategy = record.definition.arms.map((arm) => `${arm.label} (${arm.strategy}: ${strategyBehaviour(arm.strategy).reflectsAfterFailure ? "reflects after a failed trial" : "never reflects"})`);
            throw new AppError(
              "invalid-input",
              `No arm of experiment ${record.id} has a reflection. Its arms: ${byStrategy.join(", ")}. A reflection is written after a failed trial of a reflecting arm with more than one trial; if its runs are still going, wait for a failed trial, otherwise build a queue of another experiment.`,
            );
          }
        }
        items = request.kind === "pairwise" ? pairItems(found, [arms[0]!, arms[1]!], seed) : singleItems(found, request.onlyFollowedByFailure);
        if (items.length === 0) {
          throw new AppError(
            "invalid-input",
            request.kind === "pairwise"
              ? `Arms ${arms[0]} and ${arms[1]} never both reflected on the same task and trial, so there is nothing to compare side by side; build a single queue instead.`
              : `No reflection of ${arms.join(", ")} was followed by a failure; build the queue without "only reflections followed by a failure".`,
          );
        }
        name ??= `${record.definition.name}: ${request.kind === "pairwise" ? `${arms[0]} vs ${arms[1]}` : arms.join(", ")}${request.onlyFollowedByFailure ? " (followed by a failure)" : ""}`;
      }
    } else {
      const query = request.query!;
      items = await this.searchItems(query);
      arms = [...new Set(items.map((item) => item.left.arm).filter((arm): arm is string => arm !== null))];
      name ??= `Search: ${query}`.slice(0, 120);
    }
    if (items.length > MAX_QUEUE_ITEMS) throw new AppError("too-large", `The queue would hold ${items.length} items; at most ${MAX_QUEUE_ITEMS}. Narrow it: fewer arms, "only followed by a failure", or a narrower query.`);
    const queue: ReviewQueue = {
      id,
      name,
      kind: request.kind,
      rubric: request.kind === "pairwise" ? PAIRWISE_RUBRIC : request.items === "verdicts" ? VERDICT_RUBRIC : (request.rubric ?? DEFAULT_REFLECTION_RUBRIC),
      reviewers: request.reviewers,
      source: { experimentId: request.experimentId ?? null, arms, query: request.query ?? null, ...(request.kind === "single" && request.experimentId !== undefined ? { onlyFollowedByFailure: request.onlyFollowedByFailure } : {}), ...(request.items === "verdicts" ? { items: "verdicts" as const } : {}) },
      seed,
      createdAt: this.now().toISOString(),
      createdBy: request.createdBy ?? request.reviewers[0]!,
      ...(request.correctionStore ? { correctionStore: request.correctionStore } : {}),
    };
    const stored = items.map((item, position): ReviewItem => ({ ...item, id: `${id}-${position}`, queueId: id, position }));
    await this.deps.reviews.createQueue(queue, stored);
    return this.detail(id, queue);
  }

  /**
   * Saves one reviewer's review of one item, replacing their earlier one: the label must be one of
   * the rubric's; a pairwise side is resolved to the arm shown there (`preferredArm`). Tags and the
   * comment become an annotation on the reviewed node(s) (edited on a later save) when annotations are
   * wired; a correction becomes an entry of the queue's correction store (replaced on a later save,
   * deleted when cleared). On a verdict item the label (`pass` / `fail`) is also recorded as the
   * reviewer's grade of the trial through the judge page's {@link JudgeGradeService.grade} (note: the
   * comment; it replaces the trial's earlier grade, whoever gave it), and the review carries the
   * judge's verdict and score from that grade (`judge`), which is what unblinds the item.
   * @throws AppError("not-found") for an unknown queue or item; AppError("invalid-input") for a
   *   reviewer not assigned to the queue, a label not in the rubric, or a correction on a verdict item.
   */
  async saveReview(queueId: string, input: ReviewSaveRequest): Promise<Review> {
    const request = reviewSaveRequestSchema.parse(input);
    const queue = await this.queue(queueId);
    if (!queue.reviewers.includes(request.reviewer)) {
      throw new AppError("invalid-input", `${request.reviewer} is not a reviewer of this queue; its reviewers are ${queue.reviewers.join(", ")}.`);
    }
    const labels = queue.rubric.labels.map((label) => label.id);
    if (!labels.includes(request.label)) throw new AppError("invalid-input", `"${request.label}" is not a label of the rubric "${queue.rubric.name}"; choose one of ${labels.join(", ")}.`);
    const items = await this.deps.reviews.listItems(queue.id);
    const item = items.find((candidate) => candidate.id === request.itemId);
    if (!item) throw new AppError("not-found", `Review queue ${queue.id} has no item ${request.itemId}.`);
    const earlier = (await this.deps.reviews.listReviews(queue.id)).find((review) => review.itemId === item.id && review.reviewer === request.reviewer) ?? null;
    const reviewedAt = this.now().toISOString();
    const correction = request.correction?.trim() ? request.correction.trim() : null;
    if (item.judged && correction !== null) throw new AppError("invalid-input", "A verdict item takes no corrected reflection (it reviews an answer, not a reflection); put your reasons in the comment.");
    const review: Review = {
      queueId: queue.id,
      itemId: item.id,
      reviewer: request.reviewer,
      label: request.label,
      preferredArm: queue.kind === "pairwise" ? preferredArmOf(item, request.label) : null,
      tags: request.tags,
      comment: request.comment,
      correction,
      reviewedAt,
    };
    if (item.judged) {
      if (!this.deps.judgeGrades) throw new AppError("invalid-input", "The judge's grades are not available on this server, so a verdict cannot be reviewed here; grade it on the judge page (/judge).");
      const grade = await this.deps.judgeGrades.grade({ runId: item.left.runId, branchId: item.left.branchId, trial: item.left.trial, verdict: request.label === "pass" ? "pass" : "fail", note: request.comment.slice(0, 2000) });
      review.judge = { verdict: grade.judgeVerdict, score: grade.judgeScore };
    }
    const annotationIds = await this.annotate(queue, item, review, earlier);
    if (annotationIds.length > 0) review.annotationIds = annotationIds;
    const correctionEntryId = await this.correct(queue, item, review, earlier);
    if (correctionEntryId) review.correctionEntryId = correctionEntryId;
    return this.deps.reviews.saveReview(review);
  }

  private async queue(queueId: string): Promise<ReviewQueue> {
    const queue = await this.deps.reviews.getQueue(queueId);
    if (!queue) throw new AppError("not-found", `No review queue ${queueId}; \`npm run cli -- review list\` or the Reviews page lists them.`);
    return queue;
  }

  /** Every reflection of the chosen arms' runs (root branches), by task order, arm order, repetition and trial. */
  private async experimentReflections(experimentId: string, labels: readonly string[], arms: readonly string[], taskOrder: readonly string[]): Promise<FoundReflection[]> {
    const out: FoundReflection[] = [];
    for (const link of await this.deps.runs.experiments.listExperimentRuns(experimentId)) {
      const { arm, repetition } = parseCellArmKey(link.arm, labels);
      if (!arms.includes(arm)) continue;
      const run = await this.deps.runs.getRun(asRunId(link.runId));
      if (!run) continue;
      for (const outcome of reflectionOutcomes(foldRun(await this.deps.runs.list(run.id, run.rootBranchId)))) {
        out.push({ taskId: link.taskId, arm, repetition, node: nodeOf(outcome, run.id, run.rootBranchId, arm) });
      }
    }
    const task = (id: string) => (taskOrder.indexOf(id) + 1 || Number.MAX_SAFE_INTEGER);
    return out.sort((a, b) => task(a.taskId) - task(b.taskId) || arms.indexOf(a.arm!) - arms.indexOf(b.arm!) || a.repetition - b.repetition || a.node.trial - b.node.trial);
  }

  /** The reflection written after each trial a search query matched (trials without one are skipped). */
  private async searchItems(query: string): Promise<Array<Omit<ReviewItem, "id" | "queueId" | "position">>> {
    const search = this.deps.searchTrials;
    if (!search) throw new AppError("invalid-input", "Search is not available on this server, so a queue cannot be built from a query; build it from an experiment instead.");
    const result = await search(query);
    const items: Array<Omit<ReviewItem, "id" | "queueId" | "position">> = [];
    const seen = new Set<string>();
    const folded = new Map<string, ReflectionOutcome[]>();
    for (const hit of result.hits) {
      const key = `${hit.runId}\0${hit.branchId}`;
      let outcomes = folded.get(key);
      if (!outcomes) {
        outcomes = reflectionOutcomes(foldRun(await this.deps.runs.list(asRunId(hit.runId), asBranchId(hit.branchId))));
        folded.set(key, outcomes);
      }
      const outcome = outcomes.find((candidate) => candidate.failed.trial === hit.trial);
      if (!outcome || seen.has(outcome.reflectionEventId)) continue;
      seen.add(outcome.reflectionEventId);
      items.push({ taskId: hit.taskId, left: nodeOf(outcome, hit.runId, hit.branchId, hit.arm), right: null, leftArm: null });
    }
    if (items.length === 0) {
      throw new AppError("invalid-input", result.hits.length === 0 ? `The query "${query}" matched no trial.` : `None of the ${result.hits.length} trials "${query}" matched has a reflection after it; add outcome:failure or a Reflexion strategy to the query.`);
    }
    return items;
  }

  /** Writes (or edits) the annotation of the review's tags and comment on each reviewed node; returns their ids. */
  private async annotate(queue: ReviewQueue, item: ReviewItem, review: Review, earlier: Review | null): Promise<string[]> {
    const store = this.deps.annotations;
    if (!store) return [];
    const content: AnnotationContent = { text: review.comment, tags: review.tags, score: null };
    const previous = earlier?.annotationIds ?? [];
    const empty = content.text.trim() === "" && content.tags.length === 0;
    if (previous.length > 0) {
      const nodes = [item.left, item.right].filter((node): node is ReviewNode => node !== null);
      for (const [index, annotationId] of previous.entries()) {
        const runId = nodes[index]?.runId ?? item.left.runId;
        if (empty) await store.append({ type: "annotation-delete", annotationId, runId, author: review.reviewer });
        else await store.append({ type: "annotation-edit", annotationId, runId, author: review.reviewer, content });
      }
      return empty ? [] : previous;
    }
    if (empty) return [];
    const ids: string[] = [];
    for (const node of [item.left, item.right]) {
      if (!node) continue;
      const annotationId = `an-${randomUUID()}`;
      await store.append({
        type: "annotation-add",
        annotationId,
        target: { runId: node.runId, branchId: node.branchId, eventId: node.eventId, kind: node.kind, trial: node.trial, step: node.step, seq: await this.seqOf(node) },
        parentId: null,
        author: review.reviewer,
        content,
        origin: { queueId: queue.id, itemId: item.id },
      });
      ids.push(annotationId);
    }
    return ids;
  }

  /** The node's event position on its branch (what `cli annotate --seq` names); null when the event is not found. */
  private async seqOf(node: ReviewNode): Promise<number | null> {
    const events = await this.deps.runs.list(asRunId(node.runId), asBranchId(node.branchId));
    return events.find((event) => event.id === node.eventId)?.seq ?? null;
  }

  /**
   * Writes the review's correction to the queue's correction store (entry id fixed per queue, item
   * and reviewer, so saving again replaces it); clears an earlier one when the correction is now
   * empty. Pairwise: the correction is of the preferred reflection (the left one on a tie).
   */
  private async correct(queue: ReviewQueue, item: ReviewItem, review: Review, earlier: Review | null): Promise<string | null> {
    const entryId = `corr-${item.id}-${Buffer.from(review.reviewer).toString("hex")}`;
    if (review.correction === null) {
      if (earlier?.correctionEntryId) await this.deps.memoryStores.deleteEntries([earlier.correctionEntryId]);
      return null;
    }
    const node = item.right !== null && review.preferredArm !== null && review.preferredArm === item.right.arm && review.preferredArm !== item.left.arm ? item.right : item.left;
    const run = await this.deps.runs.getRun(asRunId(node.runId));
    if (!run) throw new AppError("not-found", `The run ${node.runId} of this item is gone; the correction cannot be filed under its task.`);
    await this.deps.memoryStores.putCorrection({
      id: entryId,
      store: queue.correctionStore ?? DEFAULT_CORRECTION_STORE,
      environment: run.config.environment,
      taskId: run.config.taskId,
      text: review.correction,
      source: { runId: node.runId, branchId: node.branchId, trial: node.trial },
      correctedFrom: { queueId: queue.id, itemId: item.id, reviewer: review.reviewer, runId: node.runId, eventId: node.eventId, originalText: node.text },
    });
    return entryId;
  }
}

/** A reflection as a node under review. */
function nodeOf(outcome: ReflectionOutcome, runId: string, branchId: string, arm: string | null): ReviewNode {
  return {
    runId,
    branchId,
    eventId: outcome.reflectionEventId,
    kind: "reflection",
    trial: outcome.failed.trial,
    step: null,
    arm,
    text: outcome.text,
    followedBySuccess: outcome.verdict === "no-next-trial" ? null : outcome.helped,
  };
}

/** One item per reflection (optionally only those whose next trial failed). */
export function singleItems(found: readonly FoundReflection[], onlyFollowedByFailure: boolean): Array<Omit<ReviewItem, "id" | "queueId" | "position">> {
  return found
    .filter((reflection) => !onlyFollowedByFailure || reflection.node.followedBySuccess === false)
    .map((reflection) => ({ taskId: reflection.taskId, left: reflection.node, right: null, leftArm: null }));
}

/**
 * One item per task, repetition and trial where both arms' runs reflected, with the side of each
 * arm drawn per item from xoroshiro128+ seeded with `seed` (the same seed gives the same sides).
 */
export function pairItems(found: readonly FoundReflection[], arms: readonly [string, string], seed: number): Array<Omit<ReviewItem, "id" | "queueId" | "position">> {
  const byKey = new Map<string, { taskId: string; nodes: Map<string, ReviewNode> }>();
  for (const reflection of found) {
    const key = `${reflection.taskId}\0${reflection.repetition}\0${reflection.node.trial}`;
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { taskId: reflection.taskId, nodes: new Map() }));
    if (reflection.arm !== null && !entry.nodes.has(reflection.arm)) entry.nodes.set(reflection.arm, reflection.node);
  }
  const rng = xoroshiro128plus(seed);
  const items: Array<Omit<ReviewItem, "id" | "queueId" | "position">> = [];
  for (const { taskId, nodes } of byKey.values()) {
    const first = nodes.get(arms[0]);
    const second = nodes.get(arms[1]);
    if (!first || !second) continue;
    const swap = unsafeUniformIntDistribution(0, 1, rng) === 1;
    items.push(swap ? { taskId, left: second, right: first, leftArm: arms[1] } : { taskId, left: first, right: second, leftArm: arms[0] });
  }
  return items;
}

/** The arm a pairwise label prefers: the arm shown on that side, or `tie`. */
function preferredArmOf(item: ReviewItem, label: string): string {
  if (label === "tie") return "tie";
  const node = label === "left" ? item.left : item.right;
  return node?.arm ?? (label === "left" ? (item.leftArm ?? "left") : "right");
}

/** Why a named arm has no reflection to review: its strategy never reflects, or no trial of it has failed yet. */
function noReflectionsMessage(arm: string, strategy: Strategy): string {
  if (!strategyBehaviour(strategy).reflectsAfterFailure) {
    return `Arm ${arm} has no reflections: its strategy "${strategy}" never reflects. Leave it out of the arms (with no arm named, the queue takes every arm that reflected).`;
  }
  return `Arm ${arm} has no reflections: none of its trials has failed with a trial left after it (a ${strategy} arm writes a reflection after a failed trial when more than one trial is allowed). If its runs are still going, wait for a failed trial; otherwise leave it out of the arms.`;
}
