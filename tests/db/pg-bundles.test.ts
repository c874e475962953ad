import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import { openNodePostgres } from "@/lib/db/pg/database";
import { PgRunStore } from "@/lib/db/pg/pg-store";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { countingDemo, finishedRun, outcomes, sqliteContext } from "../bundles/helpers";
import { realPostgres } from "./pg-test-stores";

// Run bundles on the shared PostgreSQL store: SQLite → PostgreSQL and back.
const postgres = realPostgres();
beforeAll(() => postgres.open(), 90_000);
afterAll(() => postgres.close());

const open: ServerContext[] = [];
afterEach(async () => {
  for (const context of open.splice(0)) {
    await context.workers.stop();
    await context.fanOut?.stop();
    await context.store.close();
  }
});

async function pgContext(): Promise<{ context: ServerContext; calls: () => number }> {
  const url = await postgres.server().createDatabase("bundles");
  const store = new PgRunStore(openNodePostgres(url, { max: 4 }), { migrate: "apply" });
  await store.ready();
  const demo = countingDemo();
  const context = createServerContext({ store, model: demo.port, templates: new MemoryTemplateStore(), workers: { concurrency: 2, pollMs: 20 } });
  open.push(context);
  return { context, calls: demo.calls };
}

describe("run bundles on PostgreSQL", () => {
  it("a SQLite run imports into PostgreSQL (once), replays there recorded with zero model calls, and exports back to SQLite", async () => {
    const source = sqliteContext();
    open.push(source.context);
    const made = await finishedRun(source.context, "qa");
    const download = await source.context.bundles.exportRun(made.id);

    const target = await pgContext();
    const imported = await target.context.bundles.importBundle(download.bytes, download.fileName);
    expect(imported.created).toBe(true);
    expect((await target.context.bundles.importBundle(download.bytes, download.fileName)).created).toBe(false);
    expect((await target.context.bundles.listBundles()).map((b) => b.contentHash)).toEqual([imported.bundle.contentHash]);
    const original = (await source.context.service.events(made.id)).events;
    const stored = (await target.context.service.events(made.id)).events;
    expect(stored.map((e) => [e.id, e.seq, e.type])).toEqual(original.map((e) => [e.id, e.seq, e.type]));
    // Every event as recorded (the run-start alone gains the bundle's provenance on import).
    expect(stored.slice(1)).toEqual(original.slice(1));
    expect(stored[0]?.type === "run-start" && stored[0].data.config.provenance?.kind).toBe("bundle");

    const { branchId } = await target.context.service.fork(made.id, { atSeq: 1, replay: "recorded" });
    await target.context.workers.untilSettled(branchId);
    const replay = (await target.context.service.events(made.id, 0, branchId)).events.filter((event) => event.branchId === branchId);
    expect(target.calls()).toBe(0);
    expect(outcomes(replay)).toEqual(outcomes(original.filter((event) => event.seq > 1)));

    const back = await target.context.bundles.exportRun(made.id);
    const again = sqliteContext();
    open.push(again.context);
    expect((await again.context.bundles.importBundle(back.bytes, back.fileName)).created).toBe(true);
    expect((await again.context.service.events(made.id)).events.filter((e) => e.branchId === made.rootBranchId).slice(1)).toEqual(original.slice(1));
  }, 120_000);

  it("an experiment bundle after one of its runs' own bundle: the run is reused (same content hash), the rest come in", async () => {
    const source = sqliteContext();
    open.push(source.context);
    const record = await source.context.experiments.start({
      name: "Overlap on PostgreSQL",
      environment: "qa",
      taskSet: "builtin",
      taskIds: ["qa-builtin-01", "qa-builtin-02"],
      arms: [{ label: "Reflexion", strategy: "reflexion", modelId: "demo" }],
      maxTrials: 2,
    });
    const runIds = await source.context.experiments.runIds(record.id);
    for (const runId of runIds) await source.context.workers.untilSettled((await source.context.service.getRun(runId)).rootBranchId);
    const first = runIds[0]!;
    const runBundle = await source.context.bundles.exportRun(first);
    const experimentBundle = await source.context.bundles.exportExperiment(record.id);

    const target = await pgContext();
    await target.context.bundles.importBundle(runBundle.bytes, runBundle.fileName);
    const result = await target.context.bundles.importBundle(experimentBundle.bytes, experimentBundle.fileName);
    expect(result).toMatchObject({ created: true, alreadyHere: false, skippedRunIds: [first] });
    expect(result.notes[0]).toMatch(/same content .*reused/);
    expect((await target.context.store.listRuns(10)).map((run) => run.id).sort()).toEqual([...runIds].sort());
    expect((await target.context.experiments.summary(record.id)).cells).toHaveLength(runIds.length);
  });
  it("a streamed (format 2) bundle imports into PostgreSQL; a failure before its bundle row removes every row it wrote", async () => {
    const source = sqliteContext();
    open.push(source.context);
    const made = await finishedRun(source.context, "qa");
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    await source.context.bundles.exportRunTo(out, made.id);
    const bytes = Buffer.concat(chunks);

    const failing = await pgContext();
    const bundles = failing.context.store.bundles!;
    const recordBundle = bundles.recordBundle.bind(bundles);
    bundles.recordBundle = async () => {
      throw new Error("connection reset");
    };
    await expect(failing.context.bundles.importBundle(bytes, "run.reflexion.json.gz")).rejects.toThrow(/connection reset/);
    expect(await failing.context.store.listRuns(10)).toEqual([]);
    expect(await failing.context.store.listCacheEntries?.([""])).toEqual([]);
    bundles.recordBundle = recordBundle;

    const imported = await failing.context.bundles.importBundle(bytes, "run.reflexion.json.gz");
    expect(imported.created).toBe(true);
    expect(imported.manifest.formatVersion).toBe(2);
    const stored = (await failing.context.service.events(made.id)).events;
    expect(stored.slice(1)).toEqual((await source.context.service.events(made.id)).events.slice(1));
  });
});
