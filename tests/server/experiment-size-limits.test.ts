import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import { apiErrorSchema } from "@/lib/domain/api";
import { experimentListResponseSchema, experimentSummarySchema } from "@/lib/domain/experiment";
import { MAX_EXPERIMENT_RUNS, MAX_EXPERIMENT_TASKS } from "@/lib/domain/workload-limits";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-experiment-size-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `n` minimal HotpotQA records (distinct ids), as a file's text. */
function hotpotFile(n: number, prefix = "q"): string {
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      _id: `${prefix}${i}`,
      question: `Which number comes after ${i}?`,
      answer: String(i + 1),
      supporting_facts: [["Numbers", 0]],
      context: [["Numbers", [`${i + 1} follows ${i}.`]]],
    })),
  );
}

const arms = [
  { label: "A", strategy: "none", modelId: "demo" },
  { label: "B", strategy: "reflexion", modelId: "demo" },
] as const;

function context(name: string): { context: ServerContext; file: string } {
  const file = path.join(dir, `${name}.sqlite`);
  return { context: createServerContext({ store: new SqliteRunStore(file), startWorkers: false }), file };
}

describe("experiment size is checked on the resolved task list, before anything is stored", () => {
  it("every task of a 5,000-task set: 400 naming the limit and taskIds, nothing stored", async () => {
    const { context: ctx } = context("whole-set");
    const set = await ctx.service.importTaskSet("qa", "big.json", hotpotFile(5_000));
    await expect(ctx.experiments.start({ name: "all", environment: "qa", taskSet: set.taskSet.id, arms: [...arms], maxTrials: 1 }, { start: false })).rejects.toMatchObject({
      code: "invalid-input",
      message: expect.stringMatching(new RegExp(`every task of big\\.json \\(5000\\); an experiment runs at most ${MAX_EXPERIMENT_TASKS} tasks\\. Nothing was stored\\. Name the tasks to run with taskIds`)),
    });
    expect(await ctx.store.experiments.listExperiments(10)).toEqual([]);
    expect(await ctx.service.listRuns()).toEqual([]);
    await ctx.store.close();
  });

  it("tasks × arms × repeats past the run cap: 400 with the product and what to reduce", async () => {
    const { context: ctx } = context("runs-cap");
    const set = await ctx.service.importTaskSet("qa", "mid.json", hotpotFile(700));
    const eight = Array.from({ length: 8 }, (_, i) => ({ label: `arm${i}`, strategy: "none" as const, modelId: "demo" }));
    const runs = 700 * 8 * 2;
    expect(runs).toBeGreaterThan(MAX_EXPERIMENT_RUNS);
    await expect(ctx.experiments.start({ name: "many", environment: "qa", taskSet: set.taskSet.id, arms: eight, repeats: 2, maxTrials: 1 }, { start: false })).rejects.toMatchObject({
      code: "invalid-input",
      message: expect.stringContaining(`would create ${runs} runs (700 tasks × 8 arms × 2 repeats); an experiment creates at most ${MAX_EXPERIMENT_RUNS}`),
    });
    expect(await ctx.store.experiments.listExperiments(10)).toEqual([]);
    await ctx.store.close();
  });

  it("creating many runs hands the event loop back between slices (timers fire meanwhile)", async () => {
    const { context: ctx } = context("yield");
    const set = await ctx.service.importTaskSet("qa", "k.json", hotpotFile(600));
    let ticks = 0;
    let stop = false;
    const tick = () => {
      ticks += 1;
      if (!stop) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const record = await ctx.experiments.start({ name: "k", environment: "qa", taskSet: set.taskSet.id, arms: [...arms], maxTrials: 1 }, { start: false });
    stop = true;
    expect((await ctx.experiments.runIds(record.id)).length).toBe(1_200);
    // SQLite writes are synchronous: without yielding, no timer could fire until every run existed.
    expect(ticks).toBeGreaterThan(2);
    await ctx.store.close();
  });
});

describe("a stored experiment that breaks today's rules never breaks the others", () => {
  it("a definition stored with more tasks than the cap is listed, shown and cancelled whole", async () => {
    const { context: ctx, file } = context("oversized");
    const small = await ctx.experiments.start({ name: "small", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [...arms], maxTrials: 1 }, { start: false });
    const big = await ctx.experiments.start({ name: "big", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01", "qa-builtin-02"], arms: [...arms], maxTrials: 1 }, { start: false });
    // As an older server stored it: 2,500 task ids (the cap is checked on what is asked for, not on what was stored).
    const raw = new DatabaseSync(file);
    const row = raw.prepare("SELECT definition FROM experiments WHERE id = ?").get(big.id) as { definition: string };
    const definition = JSON.parse(row.definition) as { taskIds: string[] };
    definition.taskIds = [...definition.taskIds, ...Array.from({ length: 2_498 }, (_, i) => `extra-${i}`)];
    raw.prepare("UPDATE experiments SET definition = ? WHERE id = ?").run(JSON.stringify(definition), big.id);
    raw.close();

    const list = experimentListResponseSchema.parse({ experiments: await ctx.experiments.list() }).experiments;
    expect(list.map((item) => [item.name, item.tasks, item.damaged])).toEqual([["big", 2_500, undefined], ["small", 1, undefined]]);
    const cancelled = experimentSummarySchema.parse(await ctx.experiments.cancel(big.id));
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.cells.map((cell) => cell.outcome)).toEqual(["cancelled", "cancelled", "cancelled", "cancelled"]);
    expect(await ctx.service.status(await ctx.service.getRun((await ctx.experiments.runIds(small.id))[0]!))).toBe("queued");
    await ctx.store.close();
  });

  it("an unreadable definition is listed as damaged; show and cancel work on what can be read; resume is refused", async () => {
    const { context: ctx, file } = context("damaged");
    const good = await ctx.experiments.start({ name: "good", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [...arms], maxTrials: 1 }, { start: false });
    const bad = await ctx.experiments.start({ name: "bad", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-02"], arms: [...arms], maxTrials: 1 }, { start: false });
    const raw = new DatabaseSync(file);
    const row = raw.prepare("SELECT definition FROM experiments WHERE id = ?").get(bad.id) as { definition: string };
    raw.prepare("UPDATE experiments SET definition = ? WHERE id = ?").run(JSON.stringify({ ...JSON.parse(row.definition), maxTrials: "five" }), bad.id);
    raw.close();

    const list = experimentListResponseSchema.parse({ experiments: await ctx.experiments.list() }).experiments;
    expect(list.map((item) => item.name)).toEqual(["bad", "good"]);
    expect(list[0]!.damaged).toMatch(new RegExp(`stored experiment ${bad.id} cannot be read whole: its definition is damaged: maxTrials: .*Its runs are kept and can be cancelled`));
    expect(list[0]!.arms).toEqual(["A", "B"]);
    expect(list[1]!.damaged).toBeUndefined();

    const shown = experimentSummarySchema.parse(await ctx.experiments.summary(bad.id));
    expect(shown.damaged).toBeDefined();
    expect(shown.cells).toHaveLength(2);
    expect((await ctx.experiments.cancel(bad.id)).cells.map((cell) => cell.outcome)).toEqual(["cancelled", "cancelled"]);
    await expect(ctx.experiments.resume(bad.id)).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("cannot be resumed") });
    expect(good.id).toBeDefined();
    await ctx.store.close();
  });

  it("a definition that is not JSON at all is still listed (damaged), not a 500 for the list", async () => {
    const { context: ctx, file } = context("not-json");
    const bad = await ctx.experiments.start({ name: "garbled", environment: "qa", taskSet: "builtin", taskIds: ["qa-builtin-01"], arms: [...arms], maxTrials: 1 }, { start: false });
    const raw = new DatabaseSync(file);
    raw.prepare("UPDATE experiments SET definition = ? WHERE id = ?").run("{not json", bad.id);
    raw.close();
    const [item] = await ctx.experiments.list();
    expect(item).toMatchObject({ id: bad.id, name: "garbled", damaged: expect.stringContaining("its JSON does not parse") });
    expect((await ctx.experiments.cancel(bad.id)).cells.map((cell) => cell.outcome)).toEqual(["cancelled", "cancelled"]);
    await ctx.store.close();
  });
});

describe("POST /api/experiments", () => {
  it("answers 400 with the limit for every task of an oversized set", async () => {
    process.env.REFLEXION_DB_PATH = path.join(dir, "route.sqlite");
    const taskSets = await import("@/app/api/task-sets/route");
    const experiments = await import("@/app/api/experiments/route");
    const upload = await taskSets.POST(new Request("http://test/api/task-sets", { method: "POST", body: JSON.stringify({ environment: "qa", name: "dev.json", content: hotpotFile(2_100) }) }));
    expect(upload.status).toBe(201);
    const { taskSet } = (await upload.json()) as { taskSet: { id: string } };
    const response = await experiments.POST(
      new Request("http://test/api/experiments", { method: "POST", body: JSON.stringify({ name: "all", environment: "qa", taskSet: taskSet.id, arms, maxTrials: 1 }) }),
    );
    expect(response.status).toBe(400);
    expect(apiErrorSchema.parse(await response.json()).error.message).toMatch(/at most 2000 tasks\. Nothing was stored\. Name the tasks to run with taskIds \(cli: --task-ids/);
    const listed = await experiments.GET(new Request("http://test/api/experiments"));
    expect(listed.status).toBe(200);
    expect(experimentListResponseSchema.parse(await listed.json()).experiments).toEqual([]);
  });
});
