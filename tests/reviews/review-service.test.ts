import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryReviewStore } from "@/lib/db/review-store-memory";
import { nominalAgreement } from "@/lib/domain/agreement";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { foldAnnotations } from "@/lib/domain/annotations";
import { DEFAULT_CORRECTION_STORE, reviewSchema, type ReviewNode } from "@/lib/domain/review-queue";
import type { TrialHit, TrialSearchResult } from "@/lib/domain/search-query";
import type { ServerContext } from "@/lib/server/app-context";
import { REVIEW_CSV_COLUMNS, reviewsCsv, reviewsJson } from "@/lib/server/review-export";
import { ReviewService, singleItems, type FoundReflection } from "@/lib/server/review-service";
import { demoContext, ListAnnotationStore, qaExperiment, QA_TASKS } from "./review-fixture";

let context: ServerContext;
let experimentId: string;

beforeAll(async () => {
  context = demoContext();
  experimentId = await qaExperiment(context);
}, 120_000);
afterAll(() => context.close());

/** A review service over the context's runs with its own stores (and annotations wired). */
function serviceWith(options: { annotations?: ListAnnotationStore | null; searchTrials?: (query: string) => Promise<TrialSearchResult> } = {}) {
  return new ReviewService({ reviews: new MemoryReviewStore(), runs: context.store, experiments: context.experiments, memoryStores: context.memoryStores, annotations: options.annotations ?? null, searchTrials: options.searchTrials ?? null });
}

describe("building a queue from an experiment", () => {
  it("pairwise: one item per task where both arms reflected, each arm's reflection of that task and trial, sides recorded", async () => {
    const { queue, items } = await context.reviews.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"], seed: 7 });
    expect(queue).toMatchObject({ kind: "pairwise", seed: 7, reviewers: ["ann", "bob"], createdBy: "ann", source: { experimentId, arms: ["A", "B"], query: null } });
    expect(queue.rubric.labels.map((label) => label.id)).toEqual(["left", "right", "tie"]);
    expect(items.map((item) => item.taskId)).toEqual(QA_TASKS);
    const links = await context.store.experiments.listExperimentRuns(experimentId);
    for (const item of items) {
      expect(item.right).not.toBeNull();
      expect(item.left.arm).toBe(item.leftArm);
      expect(new Set([item.left.arm, item.right!.arm])).toEqual(new Set(["A", "B"]));
      expect(item.left.trial).toBe(item.right!.trial);
      for (const node of [item.left, item.right!]) {
        // Each node is the reflection of its own arm's run of the item's task.
        expect(links.find((link) => link.runId === node.runId)).toMatchObject({ taskId: item.taskId, arm: node.arm });
        expect(node.kind).toBe("reflection");
        expect(node.text.length).toBeGreaterThan(20);
      }
    }
  });

  it("the sides are drawn from the stored seed: the same seed gives the same sides, and seeds differ in what they draw", async () => {
    const sides = async (seed: number) => (await context.reviews.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann"], seed })).items.map((item) => item.leftArm);
    expect(await sides(11)).toEqual(await sides(11));
    const drawn = await Promise.all(Array.from({ length: 12 }, (_, seed) => sides(seed)));
    const all = drawn.flat();
    // Over 48 draws both arms are shown on the left, and the draws are not one fixed pattern.
    expect(all.filter((arm) => arm === "A").length).toBeGreaterThan(8);
    expect(all.filter((arm) => arm === "B").length).toBeGreaterThan(8);
    expect(new Set(drawn.map((pattern) => pattern.join())).size).toBeGreaterThan(3);
  });

  it("single: every reflection of the chosen arms, in task then arm order, with the default rubric", async () => {
    const { queue, items } = await context.reviews.create({ experimentId, arms: ["B", "A"], reviewers: ["ann"] });
    expect(queue.rubric.name).toBe("Reflection quality");
    expect(items.map((item) => `${item.taskId}/${item.left.arm}`)).toEqual(QA_TASKS.flatMap((task) => [`${task}/B`, `${task}/A`]));
    expect(items.every((item) => item.right === null && item.leftArm === null)).toBe(true);
    expect(items.map((item) => item.position)).toEqual(items.map((_, index) => index));
  });

  it("with no arm named, takes every arm that reflected and leaves out the ReAct arm (strategy none)", async () => {
    const { queue, items } = await context.reviews.create({ experimentId, reviewers: ["ann", "bob"] });
    expect(queue.source.arms).toEqual(["A", "B"]);
    expect(items.map((item) => `${item.taskId}/${item.left.arm}`)).toEqual(QA_TASKS.flatMap((task) => [`${task}/A`, `${task}/B`]));
    expect(queue.name).toBe("QA reflections: A, B");
    // Named explicitly, the ReAct arm is still refused, with the reason.
    await expect(context.reviews.create({ experimentId, arms: ["A", "C"], reviewers: ["ann"] })).rejects.toThrow(/Arm C has no reflections: its strategy "none" never reflects/);
  });

  it("says why no arm has a reflection: one trial only means no failed trial with a trial after it", async () => {
    const record = await context.experiments.start({
      name: "QA one trial",
      environment: "qa",
      taskSet: "builtin",
      taskIds: QA_TASKS.slice(0, 1),
      arms: [
        { label: "R", strategy: "reflexion", modelId: "demo" },
        { label: "N", strategy: "none", modelId: "demo" },
      ],
      maxTrials: 1,
    });
    for (const runId of await context.experiments.runIds(record.id)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);
    const refused = context.reviews.create({ experimentId: record.id, reviewers: ["ann"] });
    await expect(refused).rejects.toThrow(/No arm of experiment .* has a reflection\. Its arms: R \(reflexion: reflects after a failed trial\), N \(none: never reflects\)/);
    await expect(context.reviews.create({ experimentId: record.id, reviewers: ["ann"] })).rejects.not.toThrow(/run the experiment first/);
    await expect(context.reviews.create({ experimentId: record.id, arms: ["R"], reviewers: ["ann"] })).rejects.toThrow(/Arm R has no reflections: none of its trials has failed with a trial left after it/);
  }, 60_000);

  it("refuses clearly: an arm without reflections, an unknown arm, no reflection followed by a failure, a bad request", async () => {
    await expect(context.reviews.create({ experimentId, kind: "pairwise", arms: ["A", "C"], reviewers: ["ann"] })).rejects.toThrow('Arm C has no reflections: its strategy "none" never reflects');
    await expect(context.reviews.create({ experimentId, arms: ["Z"], reviewers: ["ann"] })).rejects.toThrow(/no arm "Z"; its arms are "A", "B", "C"/);
    // The demo's reflections all helped (trial 2 succeeded), so none was followed by a failure.
    await expect(context.reviews.create({ experimentId, arms: ["A"], onlyFollowedByFailure: true, reviewers: ["ann"] })).rejects.toThrow(/followed by a failure/);
    await expect(context.reviews.create({ experimentId, kind: "pairwise", arms: ["A"], reviewers: ["ann"] })).rejects.toThrow(/exactly two different arms/);
    await expect(context.reviews.create({ experimentId, kind: "pairwise", arms: ["A", "B"], onlyFollowedByFailure: true, reviewers: ["ann"] })).rejects.toThrow(/applies to single queues/);
    await expect(context.reviews.create({ experimentId, arms: ["A"], reviewers: ["ann", "ann"] })).rejects.toThrow(/each reviewer is named once/);
    await expect(context.reviews.create({ experimentId: "nope", reviewers: ["ann"] })).rejects.toMatchObject({ code: "not-found" });
    await expect(context.reviews.create({ experimentId, reviewers: [] })).rejects.toThrow(/at least one reviewer/);
  });

  it("'only reflections followed by a failure' keeps exactly those", () => {
    const node = (eventId: string, followedBySuccess: boolean | null): FoundReflection => ({ taskId: "t", arm: "A", repetition: 1, node: { runId: "r", branchId: "b", eventId, kind: "reflection", trial: 1, step: null, arm: "A", text: eventId, followedBySuccess } satisfies ReviewNode });
    const found = [node("helped", true), node("failed", false), node("last", null)];
    expect(singleItems(found, true).map((item) => item.left.eventId)).toEqual(["failed"]);
    expect(singleItems(found, false)).toHaveLength(3);
  });
});

describe("building a queue from a search query", () => {
  async function hitsOfArm(arm: string): Promise<TrialHit[]> {
    const hits: TrialHit[] = [];
    for (const link of await context.store.experiments.listExperimentRuns(experimentId)) {
      if (link.arm !== arm) continue;
      const run = await context.service.getRun(link.runId);
      for (const trial of [1, 2]) {
        hits.push({ runId: run.id, branchId: run.rootBranchId, runTitle: run.title, family: "qa", strategy: "reflexion", taskId: link.taskId, experimentId, arm, trial, outcome: trial === 1 ? "failure" : "success", costUsd: null, steps: 3, repeat: 1, repeatedAction: null, eventId: "x", matches: [] });
      }
    }
    return hits;
  }

  it("each hit trial's reflection becomes an item (trials without one are skipped)", async () => {
    const asked: string[] = [];
    const service = serviceWith({ searchTrials: async (query) => { asked.push(query); const hits = await hitsOfArm("A"); return { query, normalized: query, hits, total: hits.length, truncated: false, tookMs: 1 }; } });
    const { queue, items } = await service.create({ query: "arm:A outcome:failure", reviewers: ["ann"] });
    expect(asked).toEqual(["arm:A outcome:failure"]);
    expect(queue.source).toMatchObject({ experimentId: null, query: "arm:A outcome:failure", arms: ["A"] });
    // Trial 2 succeeded and has no reflection after it: one item per task, the reflection after trial 1.
    expect(items.map((item) => [item.taskId, item.left.trial, item.left.arm])).toEqual(QA_TASKS.map((task) => [task, 1, "A"]));
  });

  it("says so when search is not available, or when no hit has a reflection", async () => {
    await expect(serviceWith().create({ query: "tag:loop", reviewers: ["ann"] })).rejects.toThrow(/Search is not available/);
    const empty = serviceWith({ searchTrials: async (query) => ({ query, normalized: query, hits: [], total: 0, truncated: false, tookMs: 0 }) });
    await expect(empty.create({ query: "family:qa", reviewers: ["ann"] })).rejects.toThrow(/matched no trial/);
  });
});

describe("reviewing", () => {
  it("resolves pairwise sides to arms, refuses a label outside the rubric and a reviewer not assigned, replaces on save", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"], seed: 3 });
    const item = items[0]!;
    const left = await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "left" });
    expect(left.preferredArm).toBe(item.leftArm);
    const right = await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "right" });
    expect(right.preferredArm).toBe(item.right!.arm);
    expect(right.preferredArm).not.toBe(item.leftArm);
    expect((await service.saveReview(queue.id, { itemId: item.id, reviewer: "bob", label: "tie" })).preferredArm).toBe("tie");
    expect((await service.detail(queue.id)).reviews.map((review) => [review.reviewer, review.label])).toEqual([["ann", "right"], ["bob", "tie"]]);
    await expect(service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "good" })).rejects.toThrow(/not a label of the rubric "Which reflection is better"; choose one of left, right, tie/);
    await expect(service.saveReview(queue.id, { itemId: item.id, reviewer: "eve", label: "left" })).rejects.toThrow(/eve is not a reviewer of this queue; its reviewers are ann, bob/);
    await expect(service.saveReview(queue.id, { itemId: "nope", reviewer: "ann", label: "left" })).rejects.toMatchObject({ code: "not-found" });
    await expect(service.saveReview("rq-none", { itemId: item.id, reviewer: "ann", label: "left" })).rejects.toMatchObject({ code: "not-found" });
  });

  it("progress and agreement: pairwise on the preferred arm, per reviewer pair, on the items both reviewed", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob", "cy"], seed: 5 });
    // ann prefers arm A everywhere; bob prefers A on the first two items, B on the third; cy reviews one item.
    const sideOf = (item: (typeof items)[number], arm: string) => (item.left.arm === arm ? "left" : "right");
    for (const item of items) await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: sideOf(item, "A") });
    for (const [index, item] of items.slice(0, 3).entries()) await service.saveReview(queue.id, { itemId: item.id, reviewer: "bob", label: sideOf(item, index < 2 ? "A" : "B") });
    await service.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "cy", label: "tie" });
    const { progress } = await service.detail(queue.id);
    expect(progress.items).toBe(4);
    expect(progress.byReviewer).toEqual([{ reviewer: "ann", reviewed: 4 }, { reviewer: "bob", reviewed: 3 }, { reviewer: "cy", reviewed: 1 }]);
    expect(progress.complete).toBe(1);
    const annBob = progress.agreement.find((row) => row.a === "ann" && row.b === "bob")!;
    const expected = nominalAgreement([{ a: "A", b: "A" }, { a: "A", b: "A" }, { a: "A", b: "B" }]);
    expect(annBob).toEqual({ a: "ann", b: "bob", n: 3, percentAgreement: expected.percentAgreement, kappa: expected.kappa, kappaUndefinedReason: expected.kappaUndefinedReason });
    expect(annBob.percentAgreement).toBeCloseTo(2 / 3, 12);
    // ann gave one arm only, so chance agreement is what bob's marginal gives: p_e = 1·(2/3) → κ = 0.
    expect(annBob.kappa).toBeCloseTo(0, 12);
    expect(progress.agreement.find((row) => row.a === "ann" && row.b === "cy")).toMatchObject({ n: 1, percentAgreement: 0 });
    expect(progress.agreement.find((row) => row.a === "bob" && row.b === "cy")).toMatchObject({ n: 1 });
    // Before anyone reviewed, κ is undefined and says why.
    const fresh = await service.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"], seed: 5 });
    expect(fresh.progress.agreement).toEqual([{ a: "ann", b: "bob", n: 0, percentAgreement: null, kappa: null, kappaUndefinedReason: "no item reviewed by both yet" }]);
    // The listing carries the same progress.
    expect((await service.list()).find((entry) => entry.queue.id === queue.id)?.progress).toEqual(progress);
  });

  it("tags and comment become an annotation on each reviewed node with the queue as origin; saving again edits it", async () => {
    const annotations = new ListAnnotationStore();
    const service = serviceWith({ annotations });
    const { queue, items } = await service.create({ experimentId, arms: ["A"], reviewers: ["ann"] });
    const item = items[1]!;
    const review = await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "vague", tags: ["Loop"], comment: "names the entity but no plan" });
    expect(review.tags).toEqual(["loop"]);
    expect(review.annotationIds).toHaveLength(1);
    const [annotation] = foldAnnotations(await annotations.listForRun(item.left.runId));
    expect(annotation).toMatchObject({ id: review.annotationIds![0], author: "ann", origin: { queueId: queue.id, itemId: item.id }, content: { text: "names the entity but no plan", tags: ["loop"] }, target: { eventId: item.left.eventId, kind: "reflection", trial: item.left.trial } });
    const events = await context.store.list(asRunId(item.left.runId), asBranchId(item.left.branchId));
    expect(annotation!.target.seq).toBe(events.find((event) => event.id === item.left.eventId)!.seq);
    await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "good", tags: [], comment: "on second read it is concrete" });
    const folded = foldAnnotations(await annotations.listForRun(item.left.runId));
    expect(folded).toHaveLength(1);
    expect(folded[0]!.content.text).toBe("on second read it is concrete");
    expect(folded[0]!.history).toHaveLength(1);
    // Without an annotation store they stay on the review only.
    const plain = serviceWith();
    const other = await plain.create({ experimentId, arms: ["A"], reviewers: ["ann"] });
    const kept = await plain.saveReview(other.queue.id, { itemId: other.items[0]!.id, reviewer: "ann", label: "good", tags: ["loop"], comment: "kept here" });
    expect(kept).toMatchObject({ tags: ["loop"], comment: "kept here" });
    expect(kept.annotationIds).toBeUndefined();
  });

  it("a correction is written to the gold-reflections memory store with where it came from, replaced on a later save", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann"], seed: 9 });
    const item = items[2]!;
    const preferred = item.right!;
    await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "right", correction: "First version" });
    const saved = await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "right", correction: "Search the painting's title, then read the year it was finished." });
    const exported = await context.memoryStores.exportEntries(DEFAULT_CORRECTION_STORE, { task: item.taskId });
    const entries = exported.entries.filter((entry) => entry.correctedFrom?.queueId === queue.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: saved.correctionEntryId,
      environment: "qa",
      taskId: item.taskId,
      text: "Search the painting's title, then read the year it was finished.",
      source: { runId: preferred.runId, branchId: preferred.branchId, trial: preferred.trial },
      correctedFrom: { queueId: queue.id, itemId: item.id, reviewer: "ann", runId: preferred.runId, eventId: preferred.eventId, originalText: preferred.text },
    });
    // Clearing the correction removes the entry.
    await service.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: "right", correction: null });
    expect((await context.memoryStores.exportEntries(DEFAULT_CORRECTION_STORE, { task: item.taskId })).entries.filter((entry) => entry.correctedFrom?.queueId === queue.id)).toEqual([]);
  });
});

describe("export", () => {
  it("CSV: one row per review with queue, position, task, arms, sides, label, preferred arm, reviewer, tags, comment, correction, time; JSON: the whole queue", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"], seed: 1 });
    await service.saveReview(queue.id, { itemId: items[1]!.id, reviewer: "bob", label: "left", tags: ["loop", "vague"], comment: 'says "search", then, commas' });
    await service.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "ann", label: "tie", correction: "A better one" });
    const detail = await service.detail(queue.id);
    const rows = parse(reviewsCsv(detail), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual([...REVIEW_CSV_COLUMNS]);
    expect(rows.map((row) => [row.item, row.reviewer, row.label, row.preferred_arm])).toEqual([
      ["1", "ann", "tie", "tie"],
      ["2", "bob", "left", items[1]!.leftArm],
    ]);
    expect(rows[1]).toMatchObject({ queue_id: queue.id, task_id: items[1]!.taskId, arms: "A|B", left_arm: items[1]!.left.arm, right_arm: items[1]!.right!.arm, tags: "loop;vague", comment: 'says "search", then, commas', correction: "" });
    expect(rows[0]!.correction).toBe("A better one");
    expect(rows[0]!.reviewed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const json = JSON.parse(reviewsJson(detail)) as { queue: { id: string }; items: unknown[]; reviews: unknown[]; progress: { items: number } };
    expect(json.queue.id).toBe(queue.id);
    expect(json.items).toHaveLength(4);
    expect(json.reviews).toHaveLength(2);
    expect(json.progress.items).toBe(4);
  });

  it("CSV: a cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) starts with a single quote; other text is kept as written", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, kind: "single", arms: ["A", "B"], reviewers: ["ann"] });
    const comments = ['=HYPERLINK("http://evil","x")', "+1 more search", "-2 for the loop", "@SUM(A1:A2)", "\tcmd", "a plain comment, = later"];
    for (const [index, comment] of comments.entries()) await service.saveReview(queue.id, { itemId: items[index]!.id, reviewer: "ann", label: "good", comment, correction: index === 0 ? "=1+1" : null });
    const csv = reviewsCsv(await service.detail(queue.id));
    const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.comment)).toEqual(['\'=HYPERLINK("http://evil","x")', "'+1 more search", "'-2 for the loop", "'@SUM(A1:A2)", "'\tcmd", "a plain comment, = later"]);
    expect(rows[0]!.correction).toBe("'=1+1");
    expect(csv.split(/\r?\n/u).slice(1).some((line) => /(^|,)"?[=+@-]/u.test(line))).toBe(false);
    expect(rows.map((row) => row.item)).toEqual(["1", "2", "3", "4", "5", "6"]);
  });
});

describe("review tags", () => {
  it("keeps each tag once, in the order first given, on the review and in the CSV", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, arms: ["A"], reviewers: ["ann"] });
    const review = await service.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "ann", label: "vague", tags: ["loop", "vague", "Loop", "loop"] });
    expect(review.tags).toEqual(["loop", "vague"]);
    const detail = await service.detail(queue.id);
    expect(detail.reviews[0]!.tags).toEqual(["loop", "vague"]);
    const rows = parse(reviewsCsv(detail), { columns: true }) as Array<Record<string, string>>;
    expect(rows[0]!.tags).toBe("loop;vague");
    expect(reviewSchema.parse({ queueId: "q", itemId: "i", reviewer: "ann", label: "good", preferredArm: null, tags: ["b", "a", "b"], reviewedAt: "2026-01-01T00:00:00.000Z" }).tags).toEqual(["b", "a"]);
  });
});

describe("a reviewer's view", () => {
  it("pairwise: blinds arms, sides, outcome and run ids on items this reviewer has not reviewed; leaves out others' reviews", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, kind: "pairwise", arms: ["A", "B"], reviewers: ["ann", "bob"], seed: 11 });
    await service.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "ann", label: "left" });
    await service.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "bob", label: "right" });
    await service.saveReview(queue.id, { itemId: items[1]!.id, reviewer: "bob", label: "tie" });
    const full = await service.detail(queue.id);
    const ann = await service.viewFor(queue.id, "ann");
    // Reviewed by ann: as recorded.
    expect(ann.items[0]).toEqual(full.items[0]);
    // Not reviewed by ann (bob did review item 1): blinded.
    for (const item of ann.items.slice(1)) {
      expect(item.leftArm).toBeNull();
      for (const node of [item.left, item.right!]) expect(node).toMatchObject({ arm: null, followedBySuccess: null, runId: null, branchId: null, eventId: null });
    }
    expect(ann.items[1]!.left.text).toBe(full.items[1]!.left.text);
    expect(ann.items.map((item) => item.id)).toEqual(full.items.map((item) => item.id));
    expect(ann.reviews.map((review) => [review.reviewer, review.itemId])).toEqual([["ann", items[0]!.id]]);
    // Counts and agreement stay whole.
    expect(ann.progress).toEqual(full.progress);
    expect(ann.progress.byReviewer).toEqual([{ reviewer: "ann", reviewed: 1 }, { reviewer: "bob", reviewed: 2 }]);
    // Nobody picked yet: every item blinded, no review given.
    const nobody = await service.viewFor(queue.id, null);
    expect(nobody.reviews).toEqual([]);
    expect(nobody.items.every((item) => item.leftArm === null && item.left.arm === null && item.left.runId === null)).toBe(true);
    await expect(service.viewFor(queue.id, "eve")).rejects.toThrow(/eve is not a reviewer of this queue; its reviewers are ann, bob/);
    // The full detail is unchanged by views.
    expect(full.items[1]!.leftArm).not.toBeNull();
    expect(full.reviews).toHaveLength(3);
  });

  it("single: arm and outcome hidden until reviewed, run ids kept (the page links the trajectory)", async () => {
    const service = serviceWith();
    const { queue, items } = await service.create({ experimentId, arms: ["A", "B"], reviewers: ["ann"] });
    await service.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "ann", label: "good" });
    const view = await service.viewFor(queue.id, "ann");
    expect(view.items[0]).toEqual(items[0]);
    expect(view.items[0]!.left.followedBySuccess).toBe(true);
    const blind = view.items[1]!;
    expect(blind.left).toMatchObject({ arm: null, followedBySuccess: null, runId: items[1]!.left.runId, branchId: items[1]!.left.branchId, eventId: items[1]!.left.eventId });
  });
});
