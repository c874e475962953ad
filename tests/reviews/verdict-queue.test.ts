import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { asBranchId, asRunId } from "@/lib/domain/ids";
import { VERDICT_RUBRIC } from "@/lib/domain/review-queue";
import { builtinOpenTasks } from "@/lib/environments/open";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import type { FoundJudgedTrial } from "@/lib/server/judge-grade-service";

let context: ServerContext;
let openExperiment: string;
let qaExperiment: string;
/** The judged trials of the open experiment as the judge page lists them (the oracle the queue is checked against). */
let judged: FoundJudgedTrial[];

const OPEN_TASKS = builtinOpenTasks.slice(0, 5).map((task) => task.id);

/**
 * Queues of the LLM judge's verdicts over a real `open` experiment run by the demo model (a
 * scripted stand-in whose judge is a deterministic rubric checker: under Reflexion trial 1 fails and
 * trial 2 passes; the ReAct arm fails all three trials), in memory.
 */
beforeAll(async () => {
  context = createServerContext({ store: new MemoryRunStore(), workers: { concurrency: 4, pollMs: 20 } });
  const start = async (input: Parameters<ServerContext["experiments"]["start"]>[0]) => {
    const record = await context.experiments.start(input);
    for (const runId of await context.experiments.runIds(record.id)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);
    return record.id;
  };
  openExperiment = await start({
    name: "Open arms",
    environment: "open",
    taskSet: "builtin",
    taskIds: OPEN_TASKS,
    arms: [
      { label: "A", strategy: "reflexion", modelId: "demo" },
      { label: "R", strategy: "none", modelId: "demo" },
    ],
    maxTrials: 3,
  });
  qaExperiment = await start({ name: "QA", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [{ label: "A", strategy: "none", modelId: "demo" }], maxTrials: 1 });
  const runIds = new Set((await context.store.experiments.listExperimentRuns(openExperiment)).map((link) => link.runId));
  judged = [];
  for (const runId of runIds) judged.push(...(await context.judgeGrades.judgedTrialsOfRun((await context.store.getRun(asRunId(runId)))!)));
}, 120_000);
afterAll(() => context.close());

const keyOf = (trial: { runId: string; trial: number }) => `${trial.runId}#${trial.trial}`;
const itemKey = (item: { left: { runId: string; trial: number } }) => keyOf(item.left);

describe("a review queue of the judge's verdicts", () => {
  it("has one item per judged trial of the chosen arms: the task, the answer and the evaluation node, and no verdict", async () => {
    // The demo judge passes and fails: both verdicts are in the sample, so blindness is not trivial.
    expect(new Set(judged.map((trial) => trial.judgeVerdict))).toEqual(new Set(["pass", "fail"]));
    // Reflexion: trial 1 fails, trial 2 passes; ReAct (no reflection): three failed trials per task.
    expect(judged).toHaveLength(OPEN_TASKS.length * 5);
    const { queue, items } = await context.reviews.create({ experimentId: openExperiment, items: "verdicts", reviewers: ["ann", "bob"] });
    expect(queue).toMatchObject({ kind: "single", rubric: VERDICT_RUBRIC, source: { experimentId: openExperiment, arms: ["A", "R"], items: "verdicts" } });
    expect(queue.rubric.question).toBe("Does this answer meet the task's rubric?");
    expect(items.map(itemKey).sort()).toEqual(judged.map(keyOf).sort());
    // Task order, then arm order, then trial.
    expect(items.map((item) => `${item.taskId}/${item.left.arm}/${item.left.trial}`)).toEqual(OPEN_TASKS.flatMap((task) => [`${task}/A/1`, `${task}/A/2`, `${task}/R/1`, `${task}/R/2`, `${task}/R/3`]));
    for (const item of items) {
      const trial = judged.find((candidate) => keyOf(candidate) === itemKey(item))!;
      expect(item.left).toMatchObject({ kind: "evaluation", eventId: trial.eventId, text: trial.answer, branchId: trial.branchId });
      expect(item.judged).toEqual({ taskTitle: trial.taskTitle, prompt: trial.prompt, threshold: trial.threshold, judgeModelId: "demo" });
      expect(item.left.text.length).toBeGreaterThan(10);
      expect(item.judged!.prompt.length).toBeGreaterThan(10);
      // The node is the trial's recorded evaluation-end.
      const event = (await context.store.list(asRunId(item.left.runId), asBranchId(item.left.branchId))).find((candidate) => candidate.id === item.left.eventId);
      expect(event?.type).toBe("evaluation-end");
      // Blind: nothing on the item says what the judge decided.
      expect(JSON.stringify(item)).not.toMatch(/judgeVerdict|weightedScore|"(pass|fail)"/u);
    }
    const onlyR = await context.reviews.create({ experimentId: openExperiment, items: "verdicts", arms: ["R"], reviewers: ["ann"] });
    expect(onlyR.items.map((item) => `${item.left.arm}/${item.left.trial}`)).toEqual(OPEN_TASKS.flatMap(() => ["R/1", "R/2", "R/3"]));
  });

  it("saving a label reveals the judge's verdict on that review only, records it as the reviewer's grade, and moves the judge page's agreement", async () => {
    const { queue, items } = await context.reviews.create({ experimentId: openExperiment, items: "verdicts", reviewers: ["ann", "bob"] });
    const verdictOf = (item: (typeof items)[number]) => judged.find((trial) => keyOf(trial) === itemKey(item))!;
    expect((await context.judgeGrades.overview(100)).graded).toBe(0);
    // Ann agrees with the judge on the first ten items.
    for (const item of items.slice(0, 10)) {
      const review = await context.reviews.saveReview(queue.id, { itemId: item.id, reviewer: "ann", label: verdictOf(item).judgeVerdict, comment: `ann on ${item.position}` });
      expect(review.judge).toEqual({ verdict: verdictOf(item).judgeVerdict, score: verdictOf(item).weightedScore });
    }
    let overview = await context.judgeGrades.overview(100);
    expect(overview.graded).toBe(10);
    expect(overview.agreement).toMatchObject({ n: 10, percentAgreement: 1 });
    const first = items[0]!;
    expect(overview.trials.find((trial) => keyOf(trial) === itemKey(first))?.grade).toMatchObject({ verdict: verdictOf(first).judgeVerdict, note: "ann on 0", judgeVerdict: verdictOf(first).judgeVerdict });
    // Items not yet labelled stay blind: no review carries their verdict.
    const detail = await context.reviews.detail(queue.id);
    expect(detail.reviews.filter((review) => review.judge !== undefined).map((review) => review.itemId).sort()).toEqual(items.slice(0, 10).map((item) => item.id).sort());

    // Saving again with the other label replaces the grade (still ten) and the agreement drops to 9/10.
    const flipped = verdictOf(first).judgeVerdict === "pass" ? "fail" : "pass";
    await context.reviews.saveReview(queue.id, { itemId: first.id, reviewer: "ann", label: flipped, comment: "on second reading" });
    overview = await context.judgeGrades.overview(100);
    expect(overview.graded).toBe(10);
    expect(overview.agreement?.percentAgreement).toBeCloseTo(0.9, 12);
    expect(overview.trials.find((trial) => keyOf(trial) === itemKey(first))?.grade).toMatchObject({ verdict: flipped, note: "on second reading" });

    // A second reviewer: the judge page keeps one grade per trial (the last save); the queue keeps both and their agreement.
    await context.reviews.saveReview(queue.id, { itemId: first.id, reviewer: "bob", label: verdictOf(first).judgeVerdict });
    overview = await context.judgeGrades.overview(100);
    expect(overview.graded).toBe(10);
    expect(overview.agreement?.percentAgreement).toBe(1);
    expect(overview.trials.find((trial) => keyOf(trial) === itemKey(first))?.grade).toMatchObject({ verdict: verdictOf(first).judgeVerdict, note: "" });
    const progress = (await context.reviews.detail(queue.id)).progress;
    expect(progress.agreement).toEqual([expect.objectContaining({ a: "ann", b: "bob", n: 1, percentAgreement: 0 })]);
  });

  it("refuses clearly: an experiment without judged trials, a pairwise or query queue of verdicts, a correction, a label off the rubric", async () => {
    await expect(context.reviews.create({ experimentId: qaExperiment, items: "verdicts", reviewers: ["ann"] })).rejects.toThrow(/has no judged trials in A: only open tasks are judged by a model: run an experiment of the open family/);
    await expect(context.reviews.create({ experimentId: openExperiment, items: "verdicts", kind: "pairwise", arms: ["A", "R"], reviewers: ["ann"] })).rejects.toThrow(/is a single queue/);
    await expect(context.reviews.create({ query: "family:open", items: "verdicts", reviewers: ["ann"] })).rejects.toThrow(/not from a search query/);
    const { queue, items } = await context.reviews.create({ experimentId: openExperiment, items: "verdicts", arms: ["R"], reviewers: ["ann"] });
    await expect(context.reviews.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "ann", label: "pass", correction: "a better answer" })).rejects.toThrow(/takes no corrected reflection/);
    await expect(context.reviews.saveReview(queue.id, { itemId: items[0]!.id, reviewer: "ann", label: "good" })).rejects.toThrow(/choose one of pass, fail/);
    // Nothing was recorded by the refused saves.
    expect((await context.reviews.detail(queue.id)).reviews).toEqual([]);
    // A queue of reflections still builds as before.
    await expect(context.reviews.create({ experimentId: openExperiment, arms: ["A"], reviewers: ["ann"] })).resolves.toMatchObject({ queue: { rubric: { name: "Reflection quality" } } });
  });
});
