import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinOpenTasks } from "@/lib/environments/open";
import { createServerContext } from "@/lib/server/app-context";
import { runCli } from "../cli/run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-review-verdicts-"));
const env = { REFLEXION_DB_PATH: path.join(dir, "review.sqlite") };
let experimentId = "";

/** The database the CLI reads: one open task under Reflexion, run by the demo model (trial 1 judged a failure, trial 2 a pass). */
beforeAll(async () => {
  const context = createServerContext({ env });
  try {
    const record = await context.experiments.start({ name: "Open", environment: "open", taskSet: "builtin", taskIds: [builtinOpenTasks[0]!.id], arms: [{ label: "A", strategy: "reflexion", modelId: "demo" }], maxTrials: 3 });
    for (const runId of await context.experiments.runIds(record.id)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);
    experimentId = record.id;
  } finally {
    await context.close();
  }
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("cli review create --items verdicts", { tags: ["slow"] }, () => {
  it("builds a single queue of the judged trials with the pass/fail rubric", async () => {
    const created = await runCli(["review", "create", "--experiment", experimentId, "--items", "verdicts", "--reviewers", "ann,bob", "--json"], env);
    expect(created.code, created.stderr).toBe(0);
    const { queue, items } = JSON.parse(created.stdout) as { queue: { kind: string; source: { items?: string }; rubric: { labels: Array<{ id: string }> } }; items: Array<{ left: { kind: string; trial: number }; judged?: unknown }> };
    expect(queue.kind).toBe("single");
    expect(queue.source.items).toBe("verdicts");
    expect(queue.rubric.labels.map((label) => label.id)).toEqual(["pass", "fail"]);
    expect(items.map((item) => `${item.left.kind}/${item.left.trial}`)).toEqual(["evaluation/1", "evaluation/2"]);
    expect(items.every((item) => item.judged !== undefined)).toBe(true);
  }, 120_000);
});
