import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { judgeGradesResponseSchema } from "@/lib/domain/judge-grades";
import { reviewSchema } from "@/lib/domain/review-queue";
import { reviewQueueDetailSchema } from "@/lib/domain/review-requests";
import { builtinOpenTasks } from "@/lib/environments/open";

// The routes use the process-wide context: point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-verdicts-api-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "verdicts.sqlite");

let reviews: typeof import("@/app/api/reviews/route");
let save: typeof import("@/app/api/reviews/[queueId]/reviews/route");
let grades: typeof import("@/app/api/judge-grades/route");
let openExperiment: string;
let qaExperiment: string;

/** `POST /api/reviews` with `items: "verdicts"` over a real open experiment run by the demo model, on the SQLite database. */
beforeAll(async () => {
  reviews = await import("@/app/api/reviews/route");
  save = await import("@/app/api/reviews/[queueId]/reviews/route");
  grades = await import("@/app/api/judge-grades/route");
  const { getServerContext } = await import("@/lib/server/app-context");
  const context = getServerContext();
  const start = async (input: Parameters<typeof context.experiments.start>[0]) => {
    const record = await context.experiments.start(input);
    for (const runId of await context.experiments.runIds(record.id)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);
    return record.id;
  };
  openExperiment = await start({ name: "Open", environment: "open", taskSet: "builtin", taskIds: builtinOpenTasks.slice(0, 2).map((task) => task.id), arms: [{ label: "A", strategy: "reflexion", modelId: "demo" }], maxTrials: 3 });
  qaExperiment = await start({ name: "QA", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [{ label: "A", strategy: "none", modelId: "demo" }], maxTrials: 1 });
}, 120_000);

const json = (url: string, body: unknown) => new NextRequest(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const params = (queueId: string) => ({ params: Promise.resolve({ queueId }) });

describe("/api/reviews with items: verdicts", () => {
  it("builds a queue of the judged trials (201); a saved label comes back with the judge's verdict and is the trial's grade on /api/judge-grades", async () => {
    const created = await reviews.POST(json("http://127.0.0.1/api/reviews", { experimentId: openExperiment, items: "verdicts", reviewers: ["ann"] }));
    expect(created.status).toBe(201);
    const detail = reviewQueueDetailSchema.parse(await created.json());
    // Two tasks, each judged twice under Reflexion (trial 1 fails, trial 2 passes).
    expect(detail.items.map((item) => `${item.taskId}/${item.left.trial}`)).toEqual(builtinOpenTasks.slice(0, 2).flatMap((task) => [`${task.id}/1`, `${task.id}/2`]));
    expect(detail.queue.source.items).toBe("verdicts");
    expect(detail.items.every((item) => item.judged !== undefined && item.left.kind === "evaluation")).toBe(true);

    const before = judgeGradesResponseSchema.parse(await (await grades.GET()).json());
    const target = before.trials.find((trial) => trial.runId === detail.items[0]!.left.runId && trial.trial === 1)!;
    expect(target.grade).toBeNull();
    const saved = await save.POST(json(`http://127.0.0.1/api/reviews/${detail.queue.id}/reviews`, { itemId: detail.items[0]!.id, reviewer: "ann", label: "pass", comment: "meets it to me" }), params(detail.queue.id));
    expect(saved.status).toBe(201);
    expect(reviewSchema.parse(await saved.json()).judge).toEqual({ verdict: target.judgeVerdict, score: target.weightedScore });
    const after = judgeGradesResponseSchema.parse(await (await grades.GET()).json());
    expect(after.graded).toBe(before.graded + 1);
    expect(after.trials.find((trial) => trial.runId === target.runId && trial.trial === 1)?.grade).toMatchObject({ verdict: "pass", note: "meets it to me" });
  });

  it("answers an experiment without judged trials with 400 and says to run the open family", async () => {
    const refused = await reviews.POST(json("http://127.0.0.1/api/reviews", { experimentId: qaExperiment, items: "verdicts", reviewers: ["ann"] }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/only open tasks are judged by a model: run an experiment of the open family/);
    const badItems = await reviews.POST(json("http://127.0.0.1/api/reviews", { experimentId: openExperiment, items: "answers", reviewers: ["ann"] }));
    expect(badItems.status).toBe(400);
  });
});
