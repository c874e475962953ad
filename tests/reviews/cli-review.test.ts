import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerContext } from "@/lib/server/app-context";
import { runCli } from "../cli/run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-review-"));
const env = { REFLEXION_DB_PATH: path.join(dir, "review.sqlite") };
let experimentId = "";

/** The database the CLI reads: a two-arm Reflexion experiment and a ReAct arm on three QA built-ins, run by the demo model. */
beforeAll(async () => {
  const context = createServerContext({ env });
  try {
    const record = await context.experiments.start({
      name: "QA arms",
      environment: "qa",
      taskSet: "builtin",
      taskIds: ["qa-builtin-01", "qa-builtin-02", "qa-builtin-03"],
      arms: [
        { label: "A", strategy: "reflexion", modelId: "demo" },
        { label: "B", strategy: "reflexion", modelId: "demo", memoryWindow: 1 },
        { label: "R", strategy: "none", modelId: "demo" },
      ],
      maxTrials: 3,
    });
    for (const runId of await context.experiments.runIds(record.id)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);
    experimentId = record.id;
  } finally {
    await context.close();
  }
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli review create / list / export", { tags: ["slow"] }, () => {
  it("builds a pairwise queue, lists it, exports its reviews as CSV and JSON; refuses an arm without reflections and a request with neither an experiment nor a query", async () => {
    const created = await runCli(["review", "create", "--experiment", experimentId, "--kind", "pairwise", "--arms", "A,B", "--reviewers", "ann,bob", "--name", "A vs B", "--seed", "4"], env);
    expect(created.code, created.stderr).toBe(0);
    const queueId = created.stdout.trim();
    expect(queueId).toMatch(/^rq-/);
    expect(created.stderr).toContain('Built pairwise queue "A vs B" with 3 items for ann, bob (sides drawn with seed 4)');

    const listed = await runCli(["review", "list"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe(`${queueId}\tpairwise\t3 items\tann 0/3, bob 0/3\tA vs B\n`);

    // Two reviews through the service, as the web page would save them.
    const context = createServerContext({ env, startWorkers: false });
    try {
      const { items } = await context.reviews.detail(queueId);
      await context.reviews.saveReview(queueId, { itemId: items[0]!.id, reviewer: "ann", label: "left", comment: "concrete, names the film" });
      await context.reviews.saveReview(queueId, { itemId: items[0]!.id, reviewer: "bob", label: "right" });
    } finally {
      await context.close();
    }
    const out = path.join(dir, "out", "reviews.csv");
    const exported = await runCli(["review", "export", "--queue", queueId, "--format", "csv", "--out", out], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`Wrote 2 reviews of queue ${queueId} to ${out}.`);
    const rows = parse(fs.readFileSync(out, "utf8"), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => [row.item, row.reviewer, row.label, row.preferred_arm === row.left_arm, row.comment])).toEqual([
      ["1", "ann", "left", true, "concrete, names the film"],
      ["1", "bob", "right", false, ""],
    ]);
    const json = await runCli(["review", "export", "--queue", queueId, "--format", "json"], env);
    expect((JSON.parse(json.stdout) as { progress: { agreement: Array<{ n: number }> } }).progress.agreement[0]!.n).toBe(1);

    const refused = await runCli(["review", "create", "--experiment", experimentId, "--kind", "pairwise", "--arms", "A,R", "--reviewers", "ann"], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Arm R has no reflections: its strategy "none" never reflects');
    // No arm named: every arm that reflected (A and B); the ReAct arm R is left out, not refused.
    const all = await runCli(["review", "create", "--experiment", experimentId, "--reviewers", "ann,bob"], env);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toContain("QA arms: A, B");
    expect(all.stderr).not.toContain("no reflections");
    const neither = await runCli(["review", "create", "--reviewers", "ann"], env);
    expect(neither.code).not.toBe(0);
    expect(neither.stderr).toContain("build a queue from an experiment (experimentId) or from a search query (query), one of the two");
    // Seven CLI processes, each starting tsx: minutes on a busy machine.
  }, 180_000);
});
