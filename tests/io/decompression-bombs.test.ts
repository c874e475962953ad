import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { createGzip } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "@/lib/domain/api";

// The routes share one process-wide context: point it at a private database before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-bombs-"));
process.env.REFLEXION_DB_PATH = path.join(dir, "bombs.sqlite");
delete process.env.REFLEXION_MAX_INFLATED_MB;

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const MIB = 1024 * 1024;

/**
 * gzip data that inflates to `prefix` + `mib` MiB of spaces (JSON whitespace), built by streaming
 * one 1 MiB block through zlib, so this test never holds the inflated size itself (~1000:1).
 */
async function bomb(prefix: string, mib: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => gzip.on("end", resolve).on("error", reject));
  const block = Buffer.alloc(MIB, 0x20);
  gzip.write(prefix);
  for (let i = 0; i < mib; i += 1) {
    if (!gzip.write(block)) await new Promise((resolve) => gzip.once("drain", resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/**
 * Runs `call`, sampling RSS every 5 ms; the longest gap between samples (the end included) is the
 * longest time the event loop could not answer anything. Memory after is measured on a collected heap.
 */
async function measured<T>(call: () => Promise<T>): Promise<{ result: T; ms: number; rssGrowthMb: number; maxLoopDelayMs: number; buffersAfterMb: number }> {
  gc();
  const baseline = process.memoryUsage();
  let peak = baseline.rss;
  const started = performance.now();
  let lastTick = started;
  let maxGap = 0;
  const sampler = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - lastTick);
    lastTick = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const result = await call();
  const ms = performance.now() - started;
  maxGap = Math.max(maxGap, performance.now() - lastTick);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  const after = process.memoryUsage();
  return {
    result,
    ms,
    rssGrowthMb: (peak - baseline.rss) / MIB,
    maxLoopDelayMs: maxGap,
    buffersAfterMb: (after.arrayBuffers - baseline.arrayBuffers) / MIB,
  };
}

let routes: { bundles: typeof import("@/app/api/bundles/route"); taskSets: typeof import("@/app/api/task-sets/route") };

beforeAll(async () => {
  routes = { bundles: await import("@/app/api/bundles/route"), taskSets: await import("@/app/api/task-sets/route") };
});

describe("decompression bombs are refused fast, with the limit named, in bounded memory", () => {
  it("POST /api/bundles: a ~2 MB bundle that inflates to 2 GiB answers 413 naming REFLEXION_MAX_INFLATED_MB", async () => {
    const file = await bomb('{"manifest":', 2048);
    expect(file.length).toBeLessThan(3 * MIB);
    const { result, ms, rssGrowthMb, maxLoopDelayMs, buffersAfterMb } = await measured(async () => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(file)], { type: "application/gzip" }), "bomb.reflexion.json.gz");
      const response = await routes.bundles.POST(new Request("http://test/api/bundles", { method: "POST", body: form }));
      return { status: response.status, body: apiErrorSchema.parse(await response.json()) };
    });
    console.log(`bundle bomb (${(file.length / MIB).toFixed(1)} MB → 2 GiB): ${Math.round(ms)} ms, RSS +${Math.round(rssGrowthMb)} MB, max event-loop delay ${Math.round(maxLoopDelayMs)} ms, buffers after ${Math.round(buffersAfterMb)} MB`);
    expect(result.status).toBe(413);
    expect(result.body.error.code).toBe("too-large");
    expect(result.body.error.message).toMatch(/decompresses to more than 128 MB.*REFLEXION_MAX_INFLATED_MB.*Nothing was imported.*set REFLEXION_MAX_INFLATED_MB=256/);
    expect(result.body.error.message).not.toMatch(/cut short|corrupt/);
    expect(ms).toBeLessThan(5_000);
    expect(rssGrowthMb).toBeLessThan(300);
    expect(maxLoopDelayMs).toBeLessThan(1_000);
    expect(buffersAfterMb).toBeLessThan(32);
    expect((await (await routes.bundles.GET()).json()).bundles).toEqual([]);
  });

  it("POST /api/task-sets: a ~1 MB .jsonl.gz holding 1 GiB answers 413 naming the limit; a real HumanEval.jsonl.gz still loads", async () => {
    const file = await bomb('{"task_id": "HumanEval/0", "prompt": "', 1024);
    expect(file.length).toBeLessThan(2 * MIB);
    const upload = (bytes: Buffer, name: string) =>
      routes.taskSets.POST(
        new Request("http://test/api/task-sets", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ environment: "code", name, content: bytes.toString("base64"), encoding: "base64" }),
        }),
      );
    const { result, ms, rssGrowthMb, maxLoopDelayMs, buffersAfterMb } = await measured(async () => {
      const response = await upload(file, "bomb.jsonl.gz");
      return { status: response.status, body: apiErrorSchema.parse(await response.json()) };
    });
    console.log(`dataset bomb (${(file.length / MIB).toFixed(1)} MB → 1 GiB): ${Math.round(ms)} ms, RSS +${Math.round(rssGrowthMb)} MB, max event-loop delay ${Math.round(maxLoopDelayMs)} ms, buffers after ${Math.round(buffersAfterMb)} MB`);
    expect(result.status).toBe(413);
    expect(result.body.error.message).toMatch(/bomb\.jsonl\.gz is larger than 64 MB once decompressed: a task set holds at most 10,000 tasks and 64 MB of decompressed text\. Nothing was stored/);
    expect(result.body.error.message).not.toMatch(/truncated|corrupt/);
    expect(ms).toBeLessThan(5_000);
    expect(rssGrowthMb).toBeLessThan(300);
    expect(maxLoopDelayMs).toBeLessThan(1_000);
    expect(buffersAfterMb).toBeLessThan(32);

    const real = fs.readFileSync(path.resolve(process.cwd(), "../shared/data/humaneval/HumanEval.jsonl.gz"));
    const loaded = await upload(real, "HumanEval.jsonl.gz");
    expect(loaded.status).toBe(201);
    expect((await loaded.json()).tasks).toHaveLength(164);
  });

  it("an upload body over the limit is refused from its content-length before it is read", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(MIB));
      },
    });
    const response = await routes.bundles.POST(
      new Request("http://test/api/bundles", { method: "POST", body, headers: { "content-length": String(300 * MIB), "content-type": "application/gzip" }, duplex: "half" } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(apiErrorSchema.parse(await response.json()).error.message).toMatch(/larger than 256 MB, the most this server accepts \(REFLEXION_MAX_BUNDLE_MB\)/);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("a chunked body with no length is cut off once it passes the limit", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(new Uint8Array(MIB));
      },
    });
    process.env.REFLEXION_MAX_BUNDLE_MB = "8";
    try {
      const response = await routes.bundles.POST(new Request("http://test/api/bundles", { method: "POST", body, headers: { "content-type": "application/gzip" }, duplex: "half" } as RequestInit));
      expect(response.status).toBe(413);
      expect(sent).toBeLessThan(12);
    } finally {
      delete process.env.REFLEXION_MAX_BUNDLE_MB;
    }
  });
});

describe("the CLI's dataset door and the limit's setting", () => {
  it("cli dataset files: a 1 GiB .jsonl.gz is refused at the limit, fast, naming it; the limit can be raised and a bad value is named", async () => {
    const { readDatasetFile } = await import("@/lib/cli/options");
    const file = path.join(dir, "bomb.jsonl.gz");
    fs.writeFileSync(file, await bomb("", 1024));
    const started = performance.now();
    expect(() => readDatasetFile(file)).toThrow(/dataset file decompresses to more than 128 MB.*REFLEXION_MAX_INFLATED_MB/);
    expect(performance.now() - started).toBeLessThan(5_000);

    const small = path.join(dir, "small.jsonl.gz");
    fs.writeFileSync(small, await bomb("", 2));
    try {
      process.env.REFLEXION_MAX_INFLATED_MB = "1";
      expect(() => readDatasetFile(small)).toThrow(/more than 1 MB.*set REFLEXION_MAX_INFLATED_MB=128/);
      process.env.REFLEXION_MAX_INFLATED_MB = "3";
      expect(readDatasetFile(small)).toHaveLength(2 * MIB);
      process.env.REFLEXION_MAX_INFLATED_MB = "lots";
      expect(() => readDatasetFile(small)).toThrow(/REFLEXION_MAX_INFLATED_MB="lots" is not a whole number of megabytes from 1 to 512/);
    } finally {
      delete process.env.REFLEXION_MAX_INFLATED_MB;
    }
  });
});
