import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxEvent } from "@/lib/sandbox";
import { calibrationFactor, describeLimit, DEFAULT_FACTOR, FACTOR_RANGE } from "@/lib/sandbox/calibration";
import { readSnapshotCache, snapshotCacheKey, writeSnapshotCache } from "@/lib/sandbox/snapshot-cache";
import { resolveSandboxPaths } from "@/lib/sandbox/launch";

// Fast start (decision 0019): the Pyodide memory snapshot is persisted, verified by
// SHA-256 and key before it is loaded, and rebuilt when it does not verify.

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "snapshot-cache-"));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("snapshot cache files", () => {
  const bytes = new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256));

  it("reads back what it wrote, and misses when there is nothing", () => {
    const location = { dir: tempDir(), key: "a".repeat(32) };
    expect(readSnapshotCache(location)).toEqual({ kind: "miss" });
    expect(writeSnapshotCache(location, bytes)).toBeNull();
    const read = readSnapshotCache(location);
    expect(read.kind).toBe("hit");
    expect(read.kind === "hit" && Buffer.from(read.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it("rejects and deletes a corrupted file (one flipped byte) or one made by another build", () => {
    const location = { dir: tempDir(), key: "b".repeat(32) };
    writeSnapshotCache(location, bytes);
    const data = path.join(location.dir, `pyodide-${location.key}.snapshot`);
    const corrupted = fs.readFileSync(data);
    corrupted[100] = (corrupted[100] ?? 0) ^ 0xff;
    fs.writeFileSync(data, corrupted);
    expect(readSnapshotCache(location)).toEqual({ kind: "rejected", reason: "SHA-256 mismatch (corrupted)" });
    expect(fs.existsSync(data)).toBe(false);

    writeSnapshotCache(location, bytes);
    const manifest = path.join(location.dir, `pyodide-${location.key}.json`);
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, "utf8")), key: "c".repeat(32) }));
    expect(readSnapshotCache(location)).toMatchObject({ kind: "rejected", reason: expect.stringMatching(/key mismatch/) });
  });

  it("keys by Pyodide, runner sources and Node: the key changes with a runner file", () => {
    const paths = resolveSandboxPaths();
    const runner = tempDir();
    for (const file of fs.readdirSync(paths.runnerDir)) fs.copyFileSync(path.join(paths.runnerDir, file), path.join(runner, file));
    const before = snapshotCacheKey(paths.pyodideDir, runner);
    expect(snapshotCacheKey(paths.pyodideDir, runner)).toBe(before);
    fs.appendFileSync(path.join(runner, "py_guard.py"), "\n# changed\n");
    expect(snapshotCacheKey(paths.pyodideDir, runner)).not.toBe(before);
  });
});

describe("time-limit calibration", () => {
  it("divides Pyodide by CPython time, rounds to 0.1 and clamps; no CPython gives the default", () => {
    expect(calibrationFactor(250, 100)).toBe(2.5);
    expect(calibrationFactor(50, 100)).toBe(FACTOR_RANGE.min);
    expect(calibrationFactor(5000, 100)).toBe(FACTOR_RANGE.max);
    expect(calibrationFactor(250, null)).toBe(DEFAULT_FACTOR);
    expect(describeLimit(3000, 2.5, true)).toBe("limit 7500 ms = 3000 ms × 2.5 (Pyodide/CPython speed, measured)");
  });
});

describe("pool with a persisted snapshot", () => {
  it("detects a corrupted cache file by its hash, never loads it, boots, and writes a fresh one", async () => {
    const dir = tempDir();
    const paths = resolveSandboxPaths();
    const location = { dir, key: snapshotCacheKey(paths.pyodideDir, paths.runnerDir) };
    writeSnapshotCache(location, new Uint8Array(1024));
    const data = path.join(dir, `pyodide-${location.key}.snapshot`);
    fs.writeFileSync(data, Buffer.alloc(1024, 7)); // same length, other bytes

    const events: SandboxEvent[] = [];
    const pool = createSandboxPool({ size: 1, warm: ["python"], snapshotCache: dir, timeScale: 2, onEvent: (e) => events.push(e) });
    try {
      const result = await pool.runTests({ language: "python", code: "def add(a, b):\n    return a + b\n", tests: [{ name: "t", code: "assert add(2, 3) == 5" }] });
      expect(result.verdict).toBe("pass");
      const details = events.filter((e) => e.type === "snapshot").map((e) => e.detail ?? "");
      expect(details[0]).toMatch(/cache rejected and deleted: SHA-256 mismatch/);
      expect(details.some((d) => d.startsWith("loaded"))).toBe(false);
      await expect.poll(() => readSnapshotCache(location).kind, { timeout: 10_000 }).toBe("hit");

      // the timeout message names the limit used (3 s × the pool's fixed factor 2 here)
      const slow = await pool.runTests({ language: "python", code: "def spin():\n    while True:\n        pass\n", tests: [{ name: "t", code: "spin()" }], timeoutMs: 300 });
      expect(slow.tests[0]).toMatchObject({ status: "timeout", message: expect.stringContaining("limit 600 ms = 300 ms × 2.0") });
    } finally {
      await pool.close();
    }
  }, 90_000);
});
