import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/errors";
import { createSandboxPool, type RunTestsRequest, type SandboxEvent, type SandboxPool } from "@/lib/sandbox";
import { only, runOne } from "./helpers";

// Pool behaviour: request validation, per-request time limits, ordering,
// concurrency, worker replacement and closing. JavaScript only (fast start).

let pool: SandboxPool;
const events: SandboxEvent[] = [];

beforeAll(async () => {
  pool = createSandboxPool({ size: 2, warm: ["javascript"], timeoutMs: 2000, killGraceMs: 500, onEvent: (event) => events.push(event) });
  await pool.warmup("javascript");
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

describe("sandbox pool", () => {
  it.each<[string, Partial<RunTestsRequest>]>([
    ["no tests", { tests: [] }],
    ["an unknown language", { language: "ruby" as never }],
    ["a negative time limit", { timeoutMs: -5 }],
    ["code that is not a string", { code: 42 as never }],
  ])("rejects a request with %s", async (_name, patch) => {
    const request: RunTestsRequest = { language: "javascript", code: "1", tests: [{ name: "t", code: "1" }], ...patch };
    await expect(pool.runTests(request)).rejects.toSatisfy((error: unknown) => isAppError(error, "invalid-input"));
  });

  it("returns one result per test, in order, with captured output", async () => {
    const result = await pool.runTests({
      language: "javascript",
      code: "function add(a, b) { console.log('adding', a, b); return a + b; }",
      tests: [
        { name: "first", code: "console.assert(add(1, 2) === 3)" },
        { name: "second", code: "console.assert(add(1, 2) === 4)" },
        { name: "third", code: "throw new TypeError('boom')" },
      ],
    });
    expect(result.tests.map((t) => [t.name, t.status])).toEqual([["first", "pass"], ["second", "fail"], ["third", "error"]]);
    expect(result.tests[0]!.output).toBe("adding 1 2\n");
    expect(result.tests[2]!.message).toMatch(/TypeError: boom/);
    expect(result.verdict).toBe("fail");
  });

  it("applies the per-request time limit to each test", async () => {
    const started = Date.now();
    const result = await pool.runTests({
      language: "javascript",
      code: "function spin(ms) { const end = Date.now() + ms; while (Date.now() < end) {} return ms; }",
      tests: [{ name: "fast", code: "spin(10)" }, { name: "slow", code: "spin(5000)" }, { name: "after", code: "spin(1)" }],
      timeoutMs: 300,
    });
    expect(result.tests.map((t) => t.status)).toEqual(["pass", "timeout", "pass"]);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("runs many requests concurrently and keeps them apart", async () => {
    const requests = Array.from({ length: 24 }, (_, i) => runOne(pool, "javascript", `function id() { return ${i}; }`, `console.assert(id() === ${i})`));
    const results = await Promise.all(requests);
    expect(results.every((result) => result.verdict === "pass")).toBe(true);
  });

  it("a program without the tested function is an error, not a pass", async () => {
    expect(only(await runOne(pool, "javascript", "// nothing here", "console.assert(add(1, 2) === 3)")).status).toBe("error");
  });

  it("reports its isolation", () => {
    const info = pool.info();
    expect(info.isolation.permissionFlag).toMatch(/permission/);
    expect(typeof info.isolation.detail).toBe("string");
    expect(info.workers.javascript).toBeGreaterThan(0);
  });

  it("kills a child over its memory limit, replaces it, and runs the request's remaining tests", async () => {
    const seen: SandboxEvent[] = [];
    const small = createSandboxPool({
      size: 1,
      warm: ["javascript"],
      jsHeapLimitBytes: 2 * 2 ** 30,
      memoryLimitBytes: { javascript: 200 * 2 ** 20 },
      onEvent: (event) => seen.push(event),
    });
    try {
      await small.warmup("javascript");
      const result = await small.runTests({
        language: "javascript",
        code: "function hog() { const keep = []; for (;;) keep.push(new Uint8Array(16 * 1024 * 1024).fill(1)); }",
        tests: [{ name: "hog", code: "hog()" }, { name: "next", code: "console.assert(1 + 1 === 2)" }],
        timeoutMs: 20_000,
      });
      expect(result.tests.map((t) => t.status)).toEqual(["error", "pass"]);
      expect(result.tests[0]!.message).toMatch(/memory limit exceeded/);
      expect(seen.filter((e) => e.type === "spawn").length).toBeGreaterThanOrEqual(2);
    } finally {
      await small.close();
    }
  }, 40_000);

  it("rejects work after close", async () => {
    const closing = createSandboxPool({ size: 1, warm: ["javascript"] });
    await closing.warmup("javascript");
    await closing.close();
    await expect(runOne(closing, "javascript", "1", "1")).rejects.toThrow(/closed/);
  });
});
