import { afterEach, describe, expect, it } from "vitest";
import type { ServerContext } from "@/lib/server/app-context";
import { sqliteContext } from "./helpers";

const open: ServerContext[] = [];
function track(made: { context: ServerContext }): ServerContext {
  open.push(made.context);
  return made.context;
}
afterEach(async () => {
  for (const context of open.splice(0)) {
    await context.workers.stop();
    await context.store.close();
  }
});

/** A finished two-task, two-arm QA experiment on the demo model, and its run ids. */
async function experiment(source: ServerContext) {
  const record = await source.experiments.start({
    name: "Overlap experiment",
    environment: "qa",
    taskSet: "builtin",
    taskIds: ["qa-builtin-01", "qa-builtin-02"],
    arms: [
      { label: "ReAct", strategy: "none", modelId: "demo" },
      { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
    ],
    maxTrials: 2,
  });
  const runIds = await source.experiments.runIds(record.id);
  for (const runId of runIds) await source.workers.untilSettled((await source.service.getRun(runId)).rootBranchId);
  return { record, runIds };
}

describe("an experiment bundle whose runs are partly here already", () => {
  it("imports the rest; a run imported before from its own bundle is recognised by its content hash and reused", async () => {
    const source = track(sqliteContext());
    const { record, runIds } = await experiment(source);
    const [first, ...others] = runIds;
    if (!first) throw new Error("no runs");
    const runBundle = await source.bundles.exportRun(first);
    const experimentBundle = await source.bundles.exportExperiment(record.id);

    const target = track(sqliteContext());
    await target.bundles.importBundle(runBundle.bytes, runBundle.fileName);
    const eventsBefore = (await target.service.events(first)).events;
    const result = await target.bundles.importBundle(experimentBundle.bytes, experimentBundle.fileName);

    expect(result).toMatchObject({ created: true, alreadyHere: false, skippedRunIds: [first] });
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toMatch(new RegExp(`Run ${first} .*here already with the same content \\(SHA-256 [0-9a-f]{12}…\\): the copy here was reused`));
    expect((await target.store.listRuns(10)).map((run) => run.id).sort()).toEqual([...runIds].sort());
    expect((await target.service.events(first)).events).toEqual(eventsBefore);
    for (const runId of others) expect((await target.service.getRun(runId)).config.provenance?.contentSha256).toBe(experimentBundle.manifest.contentSha256);
    const summary = await target.experiments.summary(record.id);
    const original = await source.experiments.summary(record.id);
    expect(summary.arms.map((arm) => arm.successByTrial)).toEqual(original.arms.map((arm) => arm.successByTrial));
    expect(summary.cells.map((cell) => [cell.runId, cell.outcome])).toEqual(original.cells.map((cell) => [cell.runId, cell.outcome]));
    expect((await target.bundles.getBundle(experimentBundle.manifest.contentSha256))?.runIds).toEqual(runIds);
  });

  it("a run continued here (a fork) is kept as it is here, with a note saying its content differs; the rest come in", async () => {
    const source = track(sqliteContext());
    const { record, runIds } = await experiment(source);
    const first = runIds[0];
    if (!first) throw new Error("no runs");
    const runBundle = await source.bundles.exportRun(first);
    const experimentBundle = await source.bundles.exportExperiment(record.id);

    const target = track(sqliteContext());
    await target.bundles.importBundle(runBundle.bytes, runBundle.fileName);
    const { branchId } = await target.service.fork(first, { atSeq: 1, replay: "recorded" });
    await target.workers.untilSettled(branchId);
    const result = await target.bundles.importBundle(experimentBundle.bytes, experimentBundle.fileName);

    expect(result).toMatchObject({ created: true, skippedRunIds: [first] });
    expect(result.notes[0]).toMatch(new RegExp(`Run ${first} .*here already with other content \\(2 branches .* here, 1 and .* in the bundle.*\\): the copy here was kept`));
    expect((await target.store.listBranches((await target.service.getRun(first)).id)).map((branch) => branch.id)).toContain(branchId);
    expect(await target.store.listRuns(10)).toHaveLength(runIds.length);
    expect((await target.experiments.summary(record.id)).cells).toHaveLength(runIds.length);
  });

  it("back into the database it was recorded in: every run is here with the same content, only the bundle row is added", async () => {
    const source = track(sqliteContext());
    const { record, runIds } = await experiment(source);
    const download = await source.bundles.exportExperiment(record.id);
    const result = await source.bundles.importBundle(download.bytes, download.fileName);
    expect(result).toMatchObject({ created: false, alreadyHere: true, skippedRunIds: runIds });
    expect(result.notes.every((note) => /same content/.test(note))).toBe(true);
  });
});
