import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { openPglite } from "@/lib/db/pg/pglite";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { SqliteRunStore } from "@/lib/db/sqlite-store";
import type { RunStore } from "@/lib/db/store";
import { experimentSummarySchema } from "@/lib/domain/experiment";
import { createServerContext } from "@/lib/server/app-context";
import { seedExperiment } from "@/tests/helpers/seed-experiment";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "maintained-summary-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const stores: Array<[string, () => RunStore]> = [
  ["memory", () => new MemoryRunStore()],
  ["SQLite", () => new SqliteRunStore(path.join(dir, `${Date.now()}.sqlite`))],
  [
    "PostgreSQL (PGlite)",
    () => new PgRunStore(openPglite(), { migrate: "apply" }),
  ],
];

describe.each(stores)("the maintained summary of a finished experiment (%s)", (_name, open) => {
  it("the aggregate fingerprint counts the cells, their ended runs and their logs' seqs", async () => {
    const store = open();
    const seeded = await seedExperiment(store, { tasks: 4, arms: ["A", "B"], repeats: 2, maxTrials: 3 });
    expect(await store.experiments.cellsFingerprint(seeded.experiment.id)).toEqual({ cells: 16, ended: 16, lastSeqSum: seeded.events });
    expect(await store.experiments.cellsFingerprint("no-such-experiment")).toEqual({ cells: 0, ended: 0, lastSeqSum: 0 });
    await store.close();
  });

  it("is stored once computed, served while the cells' fingerprint holds, and recomputed when it does not", async () => {
    const store = open();
    const context = createServerContext({ store, startWorkers: false });
    const { experiment } = await seedExperiment(store, { tasks: 5, arms: ["A", "B"], repeats: 3, maxTrials: 3, seed: 3 });
    const first = await context.experiments.summary(experiment.id);
    expect(first.status).toBe("ended");
    const saved = await store.experiments.getMaintainedSummary(experiment.id);
    expect(saved).not.toBeNull();
    expect(experimentSummarySchema.parse(saved?.summary)).toEqual(experimentSummarySchema.parse(first));
    expect(await context.experiments.summary(experiment.id)).toEqual(first);

    // A stored row under the current fingerprint is what the service answers with…
    const marked = { ...first, arms: first.arms.map((arm, i) => (i === 0 ? { ...arm, halts: 9_999 } : arm)) };
    await store.experiments.saveMaintainedSummary(experiment.id, saved?.fingerprint ?? "", marked);
    expect((await context.experiments.summary(experiment.id)).arms[0]?.halts).toBe(9_999);
    // …and one under another fingerprint (other cells) is recomputed and replaced.
    await store.experiments.saveMaintainedSummary(experiment.id, "v0:stale", marked);
    const recomputed = await context.experiments.summary(experiment.id);
    expect(recomputed).toEqual(first);
    expect((await store.experiments.getMaintainedSummary(experiment.id))?.fingerprint).toBe(saved?.fingerprint);
    await context.close();
  });
});
