import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { openPglite } from "@/lib/db/pg/pglite";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { trialRowsFromStats, trialRowsOfCell } from "@/lib/domain/experiment-trial-rows";
import { asRunId } from "@/lib/domain/ids";
import { RUN_TRIAL_STATS_VERSION, runTrialStats, runTrialStatsSchema } from "@/lib/domain/run-trial-stats";
import { createServerContext } from "@/lib/server/app-context";
import { validStoredStats } from "@/lib/server/run-trial-stats";
import { seedExperiment } from "@/tests/helpers/seed-experiment";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "run-trial-stats-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const stores: Array<[string, () => RunStore]> = [
  ["memory", () => new MemoryRunStore()],
  ["SQLite", () => new SqliteRunStore(path.join(dir, `${Date.now()}-${Math.random()}.sqlite`))],
  ["PostgreSQL (PGlite)", () => new PgRunStore(openPglite(), { migrate: "apply" })],
];

async function streamedText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function rootLog(store: RunStore, runId: string) {
  const run = await store.getRun(asRunId(runId));
  if (!run) throw new Error(`no run ${runId}`);
  return store.list(run.id, run.rootBranchId);
}

describe.each(stores)("stored trial stats of runs (%s)", (_name, open) => {
  it("rows built from stored stats equal rows built from the log, for every cell", async () => {
    const store = open();
    const context = createServerContext({ store, startWorkers: false });
    const { experiment } = await seedExperiment(store, { tasks: 6, arms: ["A", "B"], repeats: 2, maxTrials: 4, seed: 11 });
    const summary = await context.experiments.summary(experiment.id);
    // Fill the read model through an export, then read it back as the export does.
    await streamedText(await context.experimentExport.csvStream(experiment.id));
    const rows = await store.experiments.trialStatsOfRuns(summary.cells.map((cell) => cell.runId));
    expect(rows).toHaveLength(summary.cells.length);
    let compared = 0;
    for (const cell of summary.cells) {
      const row = rows.find((candidate) => candidate.runId === cell.runId);
      const stored = row ? validStoredStats(row) : null;
      expect(stored).not.toBeNull();
      const fromLog = trialRowsOfCell(summary, cell, await rootLog(store, cell.runId));
      expect(trialRowsFromStats(summary, cell, stored ?? [])).toEqual(fromLog);
      compared += fromLog.length;
    }
    expect(compared).toBe(summary.cells.length * 4);
    await store.close();
  });

  it("an export stores the stats of ended runs, serves them next time with the same bytes, and recomputes stale or damaged entries", async () => {
    const store = open();
    const context = createServerContext({ store, startWorkers: false });
    const { experiment } = await seedExperiment(store, { tasks: 5, arms: ["A", "B"], repeats: 2, maxTrials: 3, seed: 5 });
    const whole = await context.experimentExport.csv(experiment.id);
    const summary = await context.experiments.summary(experiment.id);
    const runIds = summary.cells.map((cell) => cell.runId);
    expect((await store.experiments.trialStatsOfRuns(runIds)).every((row) => row.stored === null)).toBe(true);

    expect(await streamedText(await context.experimentExport.csvStream(experiment.id, { cellsPerPage: 7 }))).toBe(whole);
    const filled = await store.experiments.trialStatsOfRuns(runIds);
    expect(filled.every((row) => row.stored?.version === RUN_TRIAL_STATS_VERSION && row.stored.lastSeq === row.lastSeq && validStoredStats(row) !== null)).toBe(true);
    expect(await streamedText(await context.experimentExport.csvStream(experiment.id))).toBe(whole);

    // Wrong stats under a stale key (an older seq), an older version, and a different branch: none is served.
    const [first, second, third] = filled;
    if (!first || !second || !third) throw new Error("expected at least three runs");
    await store.experiments.saveTrialStats([
      { runId: first.runId, branchId: first.rootBranchId, lastSeq: first.lastSeq - 1, version: RUN_TRIAL_STATS_VERSION, stats: [] },
      { runId: second.runId, branchId: second.rootBranchId, lastSeq: second.lastSeq, version: RUN_TRIAL_STATS_VERSION + 1, stats: [] },
      { runId: third.runId, branchId: "another-branch", lastSeq: third.lastSeq, version: RUN_TRIAL_STATS_VERSION, stats: [] },
    ]);
    for (const row of await store.experiments.trialStatsOfRuns([first.runId, second.runId, third.runId])) expect(validStoredStats(row)).toBeNull();
    // A valid key over stats that no longer parse is not served either.
    const [fourth] = filled.slice(3);
    if (!fourth) throw new Error("expected a fourth run");
    await store.experiments.saveTrialStats([{ runId: fourth.runId, branchId: fourth.rootBranchId, lastSeq: fourth.lastSeq, version: RUN_TRIAL_STATS_VERSION, stats: [{ trial: "one" }] }]);
    expect(await streamedText(await context.experimentExport.csvStream(experiment.id))).toBe(whole);
    // The export replaced them with the log's stats.
    for (const row of await store.experiments.trialStatsOfRuns([first.runId, second.runId, third.runId, fourth.runId])) {
      expect(validStoredStats(row)).toEqual(runTrialStats(await rootLog(store, row.runId)));
    }
    await store.close();
  });

  it("a run whose root branch has not ended is read from its log and nothing is stored for it", async () => {
    const store = open();
    const context = createServerContext({ store, startWorkers: false });
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 2 });
    const [row] = await store.experiments.trialStatsOfRuns([run.id]);
    expect(row?.status).not.toBe("ended");
    expect(row && validStoredStats({ ...row, stored: { runId: run.id, branchId: row.rootBranchId, lastSeq: row.lastSeq, version: RUN_TRIAL_STATS_VERSION, stats: [] } })).toBeNull();
    await store.experiments.saveTrialStats([]);
    expect((await store.experiments.trialStatsOfRuns([run.id, "no-such-run"])).map((found) => found.runId)).toEqual([run.id]);
    await store.close();
  });
});

describe("the trial stats schema", () => {
  it("accepts what runTrialStats makes after a JSON round trip and refuses a malformed entry", async () => {
    const store = new MemoryRunStore();
    const { experiment } = await seedExperiment(store, { tasks: 2, arms: ["A"], repeats: 1, maxTrials: 3, seed: 2 });
    const [link] = await store.experiments.listExperimentRuns(experiment.id);
    if (!link) throw new Error("no run");
    const stats = runTrialStats(await rootLog(store, link.runId));
    expect(stats.length).toBeGreaterThan(0);
    expect(runTrialStatsSchema.parse(JSON.parse(JSON.stringify(stats)))).toEqual(stats);
    expect(runTrialStatsSchema.safeParse([{ ...stats[0], steps: -1 }]).success).toBe(false);
  });
});
