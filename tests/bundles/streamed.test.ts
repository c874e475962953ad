import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sniffBundleFormat } from "@/lib/bundles/stream-reader";
import type { ServerContext } from "@/lib/server/app-context";
import { finishedRun, sqliteContext, TEST_SECRETS } from "./helpers";

/** Format-2 bundles (gzip'd JSON Lines): streamed export, two-pass streamed import, and every refusal leaving nothing stored. */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-streamed-"));
const open: ServerContext[] = [];
function fresh(env: Record<string, string | undefined> = {}): ServerContext {
  const made = sqliteContext(env).context;
  open.push(made);
  return made;
}
afterEach(async () => {
  for (const context of open.splice(0)) {
    await context.workers.stop();
    await context.store.close();
  }
});

let source: ServerContext;
let experimentId: string;
let runIds: string[];
let bundle: Buffer;
let hash: string;

/** Everything `write` streams into a stream, as one buffer. */
async function collect(write: (out: PassThrough) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  await write(out);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  source = sqliteContext().context;
  const record = await source.experiments.start({
    name: "Streamed experiment",
    environment: "qa",
    taskSet: "builtin",
    taskIds: ["qa-builtin-01", "qa-builtin-02"],
    arms: [
      { label: "ReAct", strategy: "none", modelId: "demo" },
      { label: "Reflexion", strategy: "reflexion", modelId: "demo" },
    ],
    maxTrials: 3,
  });
  experimentId = record.id;
  runIds = await source.experiments.runIds(record.id);
  for (const runId of runIds) await source.workers.untilSettled((await source.service.getRun(runId)).rootBranchId);
  let manifestHash = "";
  bundle = await collect(async (out) => {
    manifestHash = (await source.bundles.exportExperimentTo(out, experimentId)).manifest.contentSha256;
  });
  hash = manifestHash;
}, 120_000);
afterAll(async () => {
  await source.workers.stop();
  await source.store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function lines(file: Buffer = bundle): Array<Record<string, unknown>> {
  return gunzipSync(file)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The bundle with its lines changed by `edit` (record lines as JSON), gzip'd again; `rehash` recomputes the trailer's hash. */
function rewritten(edit: (records: Array<Record<string, unknown>>) => void, rehash: boolean): Buffer {
  const all = lines();
  edit(all);
  const texts = all.map((line) => JSON.stringify(line));
  if (rehash) {
    const digest = createHash("sha256");
    for (const text of texts.slice(1, -1)) digest.update(`${text}\n`);
    const trailer = JSON.parse(texts[texts.length - 1] ?? "{}") as Record<string, unknown>;
    texts[texts.length - 1] = JSON.stringify({ ...trailer, contentSha256: digest.digest("hex") });
  }
  return gzipSync(Buffer.from(`${texts.join("\n")}\n`));
}

/** Imports `file` (through a file on disk) into a fresh database; returns the message and checks nothing at all was stored. */
async function rejection(file: Buffer): Promise<string> {
  const target = fresh();
  const at = path.join(dir, `bad-${Math.random().toString(36).slice(2)}.reflexion.json.gz`);
  fs.writeFileSync(at, file);
  try {
    await target.bundles.importBundleFile(at);
    throw new Error("the import was not refused");
  } catch (error) {
    expect(await target.store.listRuns(10)).toEqual([]);
    expect(await target.bundles.listBundles()).toEqual([]);
    expect(await target.store.experiments.listExperiments(10)).toEqual([]);
    return error instanceof Error ? error.message : String(error);
  }
}

describe("format-2 bundles stream out and in", () => {
  it("are JSON Lines: a manifest, a header and events per run, the experiment, cache entries, a trailer with counts and hash", () => {
    const all = lines();
    expect(sniffBundleFormat(gunzipSync(bundle))).toBe(2);
    expect(all[0]).toMatchObject({ type: "manifest", formatVersion: 2, subject: { kind: "experiment", id: experimentId } });
    expect(all.at(-1)).toMatchObject({ type: "trailer", contentSha256: hash, counts: { runs: 4, experiments: 1 } });
    expect(all.filter((line) => line.type === "run").map((line) => (line.run as { id: string }).id)).toEqual(runIds);
    expect(all.some((line) => line.type === "cache")).toBe(true);
    const digest = createHash("sha256");
    for (const line of gunzipSync(bundle).toString("utf8").split("\n").slice(1, -2)) digest.update(`${line}\n`);
    expect(digest.digest("hex")).toBe(hash);
  });

  it("round trip: the runs, events and experiment imported equal what was exported; again returns the same bundle; /shared works by its hash", async () => {
    const target = fresh();
    const at = path.join(dir, "experiment.reflexion.json.gz");
    fs.writeFileSync(at, bundle);
    const imported = await target.bundles.importBundleFile(at);
    expect(imported.created).toBe(true);
    expect(imported.bundle.contentHash).toBe(hash);
    expect(imported.bundle.runIds).toEqual(runIds);
    expect(imported.bundle.experimentIds).toEqual([experimentId]);
    for (const runId of runIds) {
      const before = (await source.service.events(runId)).events;
      const after = (await target.service.events(runId)).events;
      expect(after.map((event) => [event.id, event.type, event.branchId, event.seq])).toEqual(before.map((event) => [event.id, event.type, event.branchId, event.seq]));
      expect(after.filter((event) => event.type !== "run-start")).toEqual(before.filter((event) => event.type !== "run-start"));
      expect((await target.service.getRun(runId)).config.provenance).toMatchObject({ kind: "bundle", contentSha256: hash });
    }
    const summary = await target.experiments.summary(experimentId);
    const original = await source.experiments.summary(experimentId);
    expect(summary.arms.map((arm) => arm.successByTrial)).toEqual(original.arms.map((arm) => arm.successByTrial));
    const again = await target.bundles.importBundle(bundle, "again.reflexion.json.gz");
    expect(again.created).toBe(false);
    expect(again.bundle.runIds).toEqual(runIds);
    const shared = await target.bundles.sharedView(hash);
    expect(shared?.manifest.formatVersion).toBe(2);
    expect(shared?.runs.map((run) => run.id)).toEqual(runIds);
  }, 60_000);

  it("a format-1 file still imports, from bytes and from a file", async () => {
    const runId = runIds[0] ?? "";
    const v1 = await source.bundles.exportRun(runId);
    expect(sniffBundleFormat(gunzipSync(v1.bytes))).toBe(1);
    const at = path.join(dir, "v1.reflexion.json.gz");
    fs.writeFileSync(at, v1.bytes);
    const imported = await fresh().bundles.importBundleFile(at);
    expect(imported.manifest.formatVersion).toBe(1);
    expect(imported.bundle.runIds).toEqual([runId]);
  });

  it("a database failure after some rows were written: every row written is removed again", async () => {
    const target = fresh();
    const bundles = target.store.bundles!;
    bundles.recordBundle = async () => {
      throw new Error("disk I/O error");
    };
    await expect(target.bundles.importBundle(bundle, "x.reflexion.json.gz")).rejects.toThrow(/disk I\/O error/);
    expect(await target.store.listRuns(10)).toEqual([]);
    expect(await target.store.experiments.listExperiments(10)).toEqual([]);
    expect(await target.store.listCacheEntries?.(["a"])).toEqual([]);
  });

  it("the secret scan still refuses, per line", async () => {
    const leaked = fresh({ ...TEST_SECRETS, MY_SERVICE_TOKEN: "Observation 1:" });
    const made = await finishedRun(leaked, "qa");
    await expect(collect((out) => leaked.bundles.exportRunTo(out, made.id))).rejects.toThrow(/Export refused: .*MY_SERVICE_TOKEN/);
  });

  it("never holds the test keys or a base URL's credentials", async () => {
    const keyed = fresh(TEST_SECRETS);
    const made = await finishedRun(keyed, "qa");
    const text = gunzipSync(await collect((out) => keyed.bundles.exportRunTo(out, made.id))).toString("utf8");
    for (const value of [...Object.values(TEST_SECRETS), "bundlepass", "user:pass@", "sk-test"]) expect(text.includes(value), value).toBe(false);
  });
});

describe("format-2 refusals: a clear message and nothing stored", () => {
  it("a truncated file (the gzip stream cut short)", async () => {
    expect(await rejection(bundle.subarray(0, Math.floor(bundle.length * 0.7)))).toMatch(/damaged or cut short.*Nothing was imported\./);
  });

  it("a file cut at a line boundary (valid gzip, no trailer)", async () => {
    const text = gunzipSync(bundle).toString("utf8").split("\n");
    expect(await rejection(gzipSync(Buffer.from(`${text.slice(0, 5).join("\n")}\n`)))).toMatch(/cut short: it ends after line 5, before its trailer/);
  });

  it("one changed byte in a record: the hash says it was changed", async () => {
    const file = rewritten((all) => {
      const run = all.find((line) => line.type === "run")?.run as { title: string };
      run.title = `${run.title.slice(0, -1)}X`;
    }, false);
    expect(await rejection(file)).toMatch(/changed after it was exported: its content hash is .*, its trailer says .* Nothing was imported\./);
  });

  it("a changed byte that breaks a line's JSON: still reported as changed, not as a JSON error", async () => {
    const text = gunzipSync(bundle).toString("utf8");
    const at = text.indexOf('"type":"events"');
    const broken = `${text.slice(0, at)}{${text.slice(at + 1)}`;
    expect(await rejection(gzipSync(Buffer.from(broken)))).toMatch(/changed after it was exported/);
  });

  it("a wrong trailer hash", async () => {
    const file = rewritten((all) => {
      const trailer = all.at(-1) as { contentSha256: string };
      trailer.contentSha256 = "0".repeat(64);
    }, false);
    expect(await rejection(file)).toMatch(/changed after it was exported: .* its trailer says 000000000000…/);
  });

  it("a bad reference (hash recomputed): an experiment cell names a run the bundle lacks", async () => {
    const file = rewritten((all) => {
      const experiment = all.find((line) => line.type === "experiment")?.experiment as { cells: Array<{ runId: string }> };
      experiment.cells[0]!.runId = "run-nowhere";
    }, true);
    expect(await rejection(file)).toMatch(/lists run run-nowhere, which the bundle does not have\. Nothing was imported\./);
  });

  it("a missing events line (hash recomputed): the branch skips a seq", async () => {
    const file = rewritten((all) => {
      const events = all.find((line) => line.type === "events") as { events: unknown[] };
      events.events.splice(3, 1);
    }, true);
    expect(await rejection(file)).toMatch(/skips from seq/);
  });

  it("a field outside the allow-list, even with a matching hash", async () => {
    const file = rewritten((all) => {
      Object.assign(all.find((line) => line.type === "run")?.run as object, { apiKey: "sk-smuggled" });
    }, true);
    expect(await rejection(file)).toMatch(/does not match the bundle format at line 2, run: .*apiKey/i);
  });

  it("a newer format version", async () => {
    const file = rewritten((all) => {
      all[0]!.formatVersion = 99;
    }, false);
    expect(await rejection(file)).toMatch(/made by a newer version of Reflexion Playground \(bundle format 99; this app reads up to 2\)/);
  });

  it("a file that is not gzip at all", async () => {
    expect(await rejection(Buffer.from("notes, not a bundle\n"))).toMatch(/^This file is not a readable Reflexion bundle: a bundle is gzip data/);
  });
});
