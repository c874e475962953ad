import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { expectHealthy } from "./helpers";

// JavaScript / TypeScript programs and tests share one namespace in the suites' own harnesses
// (MultiPL-E and HumanEval-X concatenate the program and the test into one file), so a test may
// use the program's `assert` binding or its constants; here too, with the test's objects its own.

let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, warm: ["javascript"], timeoutMs: 3000 });
  await pool.warmup("javascript");
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

const run = async (language: "javascript" | "typescript", code: string, ...tests: string[]) => {
  const result = await pool.runTests({ language, code, tests: tests.map((test, index) => ({ name: `t${index + 1}`, code: test })) });
  return result.tests.map((test) => [test.status, test.message]);
};

describe("javascript: program and tests share one namespace", () => {
  it("a test uses the assert the program required (MultiPL-E files start with it), with per-test verdicts", async () => {
    const code = 'const assert = require("node:assert");\nfunction add(a, b) {\n  return a + b;\n}\n';
    const results = await run("javascript", code, "assert.deepEqual(add(1, 2), 3);", "assert.strictEqual(add(1, 2), 4);", "assert(add(1, 1) === 2);");
    expect(results[0]).toEqual(["pass", ""]);
    expect(results[1]![0]).toBe("fail");
    expect(results[1]![1]).toMatch(/AssertionError/);
    expect(results[2]).toEqual(["pass", ""]);
  });

  it("a test uses the program's constants, copied as plain data", async () => {
    const code = "const LIMIT = 10;\nlet names = ['a', 'b'];\nvar table = { x: [1, 2] };\nfunction f() {\n  return 10;\n}\n";
    const results = await run("javascript", code, "console.assert(f() === LIMIT);", "console.assert(names.length === 2 && table.x[1] === 2);", "console.assert(f() === LIMIT + 1);");
    expect(results.map((result) => result[0])).toEqual(["pass", "pass", "fail"]);
  });

  it("TypeScript too", async () => {
    const code = "const MOD: number = 1_000_000_007;\nfunction f(n: number): number {\n  return n % MOD;\n}\n";
    expect(await run("typescript", code, "console.assert(f(MOD + 1) === 1);")).toEqual([["pass", ""]]);
  });

  it("a copied constant carries data, never the program's code: getters are read in the program, functions do not cross", async () => {
    const code = "const DATA = { get n() { return 5; } };\nconst WITH_FN = { valueOf() { return 1; } };\nfunction f() {\n  return 5;\n}\n";
    const results = await run(
      "javascript",
      code,
      "console.assert(f() === DATA.n);",
      "console.assert(Object.getOwnPropertyDescriptor(DATA, 'n').get === undefined);",
      "console.assert(WITH_FN == 1);",
    );
    expect(results.map((result) => result[0])).toEqual(["pass", "pass", "error"]);
    expect(results[2]![1]).toMatch(/ReferenceError/);
    await expectHealthy(pool, "javascript");
  });
});
