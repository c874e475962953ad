import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { PaperImportService } from "@/lib/importers/import-service";
import { createServerContext } from "@/lib/server/app-context";
import { listReflections, RECENT_RUNS_SCANNED } from "@/lib/server/reflection-outcomes";
import { makeRunConfig } from "../graph/fixtures";

/**
 * The Reflections page's default view (no experiment, no run named) after a
 * new user imported every log: the newest runs are one-trial imports (code),
 * yet the list shows the reflections of the runs that started more than one
 * trial, and `runs` counts the runs read.
 */
const DATA_ROOT = path.resolve(__dirname, "../../../shared/data");
const LOGS = path.join(DATA_ROOT, "reflexion/noahshinn-reflexion");

let store: MemoryRunStore;

beforeAll(async () => {
  store = new MemoryRunStore();
  const context = createServerContext({ store, startWorkers: false, env: {} });
  const service = new PaperImportService(store, context.experiments, { dataRoot: DATA_ROOT });
  await service.importPath(path.join(LOGS, "hotpotqa_runs/root/ReAct/reflexion/100_questions_5_trials.txt"));
  // More one-trial runs than the default view reads, all newer than the import.
  for (let i = 0; i < RECENT_RUNS_SCANNED + 20; i += 1) await store.createRun({ config: makeRunConfig({ maxTrials: 1 }), title: `one trial ${i}` });
}, 60_000);

describe("the default view of the reflections", () => {
  it("reads the runs that started more than one trial, not the newest one-trial runs", async () => {
    const all = await listReflections(store, { q: "", limit: 200 });
    expect(all.counts.helped).toBe(19);
    expect(all.total).toBeGreaterThan(0);
    // The runs read are the 68 questions not solved at trial 1 (100 − 32, reference §2.10) — none of the one-trial runs.
    expect(all.runs).toBe(68);
    for (const item of all.items) expect(item.recordedSource).not.toBeNull();
    const worked = await listReflections(store, { q: "", helped: true, limit: 200 });
    expect(worked.items).toHaveLength(19);
  });
});
