import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { decodeBundle } from "@/lib/bundles/codec";
import type { EnvironmentId } from "@/lib/domain/config";
import { foldRun } from "@/lib/domain/fold-run";
import type { ServerContext } from "@/lib/server/app-context";
import { finishedRun, outcomes, sqliteContext, TEST_SECRETS } from "./helpers";

const open: ServerContext[] = [];
function track<T extends { context: ServerContext }>(made: T): T {
  open.push(made.context);
  return made;
}
afterEach(async () => {
  for (const context of open.splice(0)) {
    await context.workers.stop();
    await context.store.close();
  }
});

/** Exports `runId` from `source`, imports it into a fresh database, replays the root recorded, and returns both logs. */
async function roundTrip(source: ServerContext, runId: string) {
  const download = await source.bundles.exportRun(runId);
  const target = track(sqliteContext());
  const imported = await target.context.bundles.importBundle(download.bytes, download.fileName);
  expect(imported.created).toBe(true);
  const run = await target.context.service.getRun(runId);
  const { branchId } = await target.context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
  await target.context.workers.untilSettled(branchId);
  const replay = (await target.context.service.events(run.id, 0, branchId)).events.filter((event) => event.branchId === branchId);
  const original = (await source.service.events(runId)).events;
  return { download, target, run, replay, original };
}

describe("run bundles: export → import into a fresh database → recorded replay", () => {
  for (const environment of ["qa", "household", "code"] satisfies EnvironmentId[]) {
    it(`a ${environment} run replays with zero model calls and identical outcomes, read-only with its provenance`, async () => {
      const source = track(sqliteContext(TEST_SECRETS));
      const made = await finishedRun(source.context, environment);
      expect(source.calls()).toBeGreaterThan(0);

      const { download, target, run, replay, original } = await roundTrip(source.context, made.id);
      expect(target.calls()).toBe(0);
      expect(outcomes(replay)).toEqual(outcomes(original));
      expect(outcomes(replay).length).toBeGreaterThan(3);
      const totals = foldRun(replay).totals;
      expect(totals.liveCalls).toBe(0);
      expect(totals.cachedCalls).toBeGreaterThan(0);

      expect(run.config.provenance).toMatchObject({ kind: "bundle", label: "Imported bundle", contentSha256: download.manifest.contentSha256 });
      const folded = foldRun((await target.context.service.events(run.id)).events);
      expect(folded.config?.provenance?.kind).toBe("bundle");
      // Recorded by this app with their model calls: not "as logged" like a paper log's steps.
      const steps = folded.trials.flatMap((trial) => trial.steps);
      expect(steps.length).toBeGreaterThan(0);
      expect(steps.some((step) => step.recordedByAuthors)).toBe(false);
      await expect(target.context.service.pause(run.id)).rejects.toThrow(/imported bundle and is read-only/);
    });
  }

  it("a fork from a checkpoint continues live with the importer's own model", async () => {
    const source = track(sqliteContext());
    const made = await finishedRun(source.context, "qa");
    const download = await source.context.bundles.exportRun(made.id);
    const target = track(sqliteContext());
    await target.context.bundles.importBundle(download.bytes, download.fileName);
    const events = (await target.context.service.events(made.id)).events;
    const checkpoint = events.find((event) => event.type === "checkpoint");
    if (!checkpoint) throw new Error("the run has no checkpoint");
    const { branchId } = await target.context.service.fork(made.id, { atSeq: checkpoint.seq, replay: "live" });
    await target.context.workers.untilSettled(branchId);
    expect(target.calls()).toBeGreaterThan(0);
    const fork = (await target.context.service.events(made.id, 0, branchId)).events;
    expect(fork.at(-1)?.type).toBe("run-end");
  });

  it("an experiment bundle brings every run, the cells and the cache; its runs replay with zero calls", async () => {
    const source = track(sqliteContext());
    const record = await source.context.experiments.start({
      name: "Bundle experiment",
      environment: "qa",
      taskSet: "builtin",
      taskIds: ["qa-builtin-01", "qa-builtin-02"],
      arms: [
        { label: "ReAct", strategy: "none", modelId: "demo" },
        { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
      ],
      maxTrials: 3,
    });
    const runIds = await source.context.experiments.runIds(record.id);
    for (const runId of runIds) await source.context.workers.untilSettled((await source.context.service.getRun(runId)).rootBranchId);
    const download = await source.context.bundles.exportExperiment(record.id);
    expect(download.manifest.counts.runs).toBe(4);

    const target = track(sqliteContext());
    const imported = await target.context.bundles.importBundle(download.bytes, download.fileName);
    expect(imported.bundle.experimentIds).toEqual([record.id]);
    const summary = await target.context.experiments.summary(record.id);
    const before = await source.context.experiments.summary(record.id);
    expect(summary.arms.map((arm) => arm.successByTrial)).toEqual(before.arms.map((arm) => arm.successByTrial));
    expect(summary.experiment.provenance?.kind).toBe("bundle");
    for (const runId of runIds) {
      const { branchId } = await target.context.service.fork(runId, { atSeq: 1, replay: "recorded" });
      await target.context.workers.untilSettled(branchId);
      const replay = (await target.context.service.events(runId, 0, branchId)).events.filter((event) => event.branchId === branchId);
      expect(outcomes(replay)).toEqual(outcomes((await source.context.service.events(runId)).events));
    }
    expect(target.calls()).toBe(0);
  });

  it("importing the same bundle twice returns the same runs and writes nothing new", async () => {
    const source = track(sqliteContext());
    const made = await finishedRun(source.context, "qa");
    const download = await source.context.bundles.exportRun(made.id);
    const target = track(sqliteContext());
    const first = await target.context.bundles.importBundle(download.bytes, "a.reflexion.json.gz");
    const second = await target.context.bundles.importBundle(download.bytes, "renamed.reflexion.json.gz");
    expect(second.created).toBe(false);
    expect(second.bundle).toEqual(first.bundle);
    expect(await target.context.store.listRuns(10)).toHaveLength(1);
    // Back into the database it came from: the runs are there already; the bundle is only recorded.
    const home = await source.context.bundles.importBundle(download.bytes, download.fileName);
    expect(home).toMatchObject({ created: false, alreadyHere: true });
    expect(await source.context.bundles.getBundle(download.manifest.contentSha256)).not.toBeNull();
  });

  it("a bundle never holds the test keys or a base URL's credentials, and names only allow-listed fields", async () => {
    const source = track(sqliteContext(TEST_SECRETS));
    const made = await finishedRun(source.context, "qa");
    const { bytes } = await source.context.bundles.exportRun(made.id);
    const text = gunzipSync(bytes).toString("utf8");
    for (const value of [...Object.values(TEST_SECRETS), "bundlepass", "user:pass@", "sk-test"]) {
      expect(text.includes(value), value).toBe(false);
      expect(bytes.includes(Buffer.from(value)), value).toBe(false);
    }
    expect(Object.keys(await decodeBundle(bytes))).toEqual(["manifest", "content"]);
  });

  it("refuses to export a run whose recorded text holds a key's value (the allow-list's second line of defence)", async () => {
    const leaked = { ...TEST_SECRETS, MY_SERVICE_TOKEN: "Observation 1:" };
    const source = track(sqliteContext(leaked));
    const made = await finishedRun(source.context, "qa");
    await expect(source.context.bundles.exportRun(made.id)).rejects.toThrow(/Export refused: .*MY_SERVICE_TOKEN/);
  });
});
