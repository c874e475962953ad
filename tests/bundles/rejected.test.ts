import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentSha256 } from "@/lib/bundles/content-hash";
import type { ServerContext } from "@/lib/server/app-context";
import { finishedRun, sqliteContext } from "./helpers";

let source: ServerContext;
let bytes: Buffer;

beforeAll(async () => {
  source = sqliteContext().context;
  const run = await finishedRun(source, "qa");
  bytes = (await source.bundles.exportRun(run.id)).bytes;
});
afterAll(async () => {
  await source.workers.stop();
  await source.store.close();
});

/** The bundle's JSON, changed by `edit`, gzipped again. */
function rewritten(edit: (json: { manifest: Record<string, unknown>; content: { runs: Array<{ title: string; events: unknown[] }> } }) => void): Buffer {
  const json = JSON.parse(gunzipSync(bytes).toString("utf8"));
  edit(json);
  return gzipSync(Buffer.from(JSON.stringify(json)));
}

/** Imports `file` into a fresh database and returns the error message; checks that nothing at all was stored. */
async function rejection(file: Uint8Array): Promise<string> {
  const { context } = sqliteContext();
  try {
    await context.bundles.importBundle(file, "bad.reflexion.json.gz");
    throw new Error("the import was not refused");
  } catch (error) {
    expect(await context.store.listRuns(10)).toEqual([]);
    expect(await context.bundles.listBundles()).toEqual([]);
    expect(await context.store.experiments.listExperiments(10)).toEqual([]);
    return error instanceof Error ? error.message : String(error);
  } finally {
    await context.workers.stop();
    await context.store.close();
  }
}

describe("corrupt, tampered and newer bundles are refused with a clear message and import nothing", () => {
  it("a file that is not gzip at all (a text file): named as not a bundle, once, without a zlib message", async () => {
    const message = await rejection(Buffer.from("these are my notes, not a bundle\n"));
    expect(message).toMatch(/^This file is not a readable Reflexion bundle: a bundle is gzip data .* Nothing was imported\.$/);
    expect(message).not.toMatch(/incorrect header check|looks gzip-compressed/);
  });

  it("one changed byte in the content: hash mismatch", async () => {
    const file = rewritten((json) => {
      const run = json.content.runs[0];
      if (run) run.title = `${run.title.slice(0, -1)}X`;
    });
    expect(await rejection(file)).toMatch(/changed after it was exported: its content hash is .* Nothing was imported\./);
  });

  it("one flipped byte of the gzip file: unreadable", async () => {
    const file = Buffer.from(bytes);
    const at = Math.floor(file.length / 2);
    file[at] = (file[at] ?? 0) ^ 0xff;
    expect(await rejection(file)).toMatch(/not a readable Reflexion bundle|damaged|changed after it was exported/);
  });

  it("a truncated file", async () => {
    expect(await rejection(bytes.subarray(0, Math.floor(bytes.length * 0.7)))).toMatch(/cut short/);
  });

  it("an unknown future format version", async () => {
    const file = rewritten((json) => {
      json.manifest.formatVersion = 99;
    });
    expect(await rejection(file)).toMatch(/made by a newer version of Reflexion Playground \(bundle format 99; this app reads up to 2\)/);
  });

  it("a field outside the allow-list, even with a matching hash", async () => {
    const file = rewritten((json) => {
      const run = json.content.runs[0];
      if (run) Object.assign(run, { apiKey: "sk-smuggled" });
      json.manifest.contentSha256 = contentSha256(json.content);
    });
    expect(await rejection(file)).toMatch(/does not match the bundle format at content\.runs\.0: .*apiKey/i);
  });

  it("a missing event (hash recomputed): the branch skips a seq", async () => {
    const file = rewritten((json) => {
      json.content.runs[0]?.events.splice(3, 1);
      json.manifest.contentSha256 = contentSha256(json.content);
    });
    expect(await rejection(file)).toMatch(/counts|skips from seq/);
  });

  it("not a bundle at all", async () => {
    expect(await rejection(gzipSync(Buffer.from(JSON.stringify({ hello: "world" }))))).toMatch(/not a Reflexion Playground run bundle/);
  });
});
