import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { ExperimentRecord } from "@/lib/domain/experiment";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { EXPERIMENT_CSV_COLUMNS } from "@/lib/server/experiment-export";

// The demo model's scripted solutions to code-py-07 and code-ts-03 pass their own internal tests
// and fail the hidden ones: false positives, which pass@1 must count as failures.
const TASKS = ["code-py-07", "code-ts-03", "code-py-01"];

let context: ServerContext;
let record: ExperimentRecord;

beforeAll(async () => {
  const model = createModelPort({ demoScriptBooks: [codeDemoScriptBook, qaDemoScriptBook, householdDemoScriptBook] });
  context = createServerContext({ store: new MemoryRunStore(), model, workers: { concurrency: 2, pollMs: 20 } });
  record = await context.experiments.start({
    name: "False positives",
    environment: "code",
    taskSet: "builtin",
    taskIds: TASKS,
    arms: [
      { label: "Simple", strategy: "none", modelId: "demo" },
      { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
    ],
    maxTrials: 2,
  });
  for (const runId of await context.experiments.runIds(record.id)) await context.workers.untilSettled((await context.service.getRun(runId)).rootBranchId);
}, 240_000);

afterAll(async () => {
  await context.workers.stop();
});

describe("experiment exports: CSV, JSON and the summary agree on a code experiment with false positives", () => {
  it("row by row and in totals; a false positive is a failure in every one", async () => {
    const summary = await context.experiments.summary(record.id);
    expect(summary.status).toBe("ended");
    const csv = parse(await context.experimentExport.csv(record.id), { columns: true }) as Array<Record<string, string>>;
    const json = await context.experimentExport.json(record.id);
    expect(Object.keys(csv[0] ?? {})).toEqual([...EXPERIMENT_CSV_COLUMNS]);

    // Row by row: the CSV is the JSON's trial rows, cell for cell (null is an empty cell, booleans true/false).
    expect(csv).toHaveLength(json.trials.length);
    json.trials.forEach((row, i) => {
      const expected = Object.fromEntries(EXPERIMENT_CSV_COLUMNS.map((column) => [column, row[column] === null ? "" : String(row[column])]));
      expect(csv[i]).toEqual(expected);
    });

    // The false positives are there, and are failures.
    const falsePositives = csv.filter((row) => row.false_positive === "true");
    expect(new Set(falsePositives.map((row) => row.task_id))).toEqual(new Set(["code-py-07", "code-ts-03"]));
    for (const row of falsePositives) {
      expect(row).toMatchObject({ internal_verdict: "pass", hidden_verdict: "fail", trial_outcome: "success", outcome: "failure" });
    }
    for (const row of csv.filter((candidate) => candidate.outcome === "success")) expect(row.hidden_verdict).toBe("pass");

    // Each row's outcome is the summary's: success exactly at the cell's solvedAtTrial; the cells are the JSON's.
    expect(json.cells).toEqual(summary.cells);
    for (const cell of summary.cells) {
      const all = csv.filter((row) => row.run_id === cell.runId);
      // Long format: the played trials, then the ended run carried forward to the trial budget (2 here).
      const rows = all.filter((row) => row.carried_forward === "false");
      expect(rows.length).toBe(cell.trials);
      expect(all.map((row) => Number(row.trial))).toEqual([1, 2]);
      for (const row of all) expect(row.solved_so_far).toBe(String(cell.solvedAtTrial !== null && Number(row.trial) >= cell.solvedAtTrial));
      expect(rows.filter((row) => row.outcome === "success").map((row) => Number(row.trial))).toEqual(cell.solvedAtTrial === null ? [] : [cell.solvedAtTrial]);
      expect(rows.some((row) => row.false_positive === "true")).toBe(cell.falsePositive);
      for (const row of rows) expect(row).toMatchObject({ memory_window: expect.stringMatching(/^\d*$/), actor_temperature: "0", actor_template: expect.stringMatching(/^code\/.+@\d+$/) });
    }

    // Totals per arm: successes and false positives, in the CSV, the JSON and the summary.
    for (const arm of summary.arms) {
      const rows = csv.filter((row) => row.arm === arm.label);
      const jsonArm = json.arms.find((candidate) => candidate.label === arm.label);
      const successes = rows.filter((row) => row.outcome === "success").length;
      expect(successes).toBe(arm.successByTrial.at(-1));
      expect(jsonArm?.successByTrial.at(-1)).toBe(successes);
      expect(rows.filter((row) => row.false_positive === "true").length).toBe(arm.falsePositives);
      expect(jsonArm?.falsePositives).toBe(arm.falsePositives);
      expect(arm.falsePositives).toBe(2);
      expect(rows.filter((row) => row.halt_reason !== "").length).toBe(arm.halts);
    }
  });
});
