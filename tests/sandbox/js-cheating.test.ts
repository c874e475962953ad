import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { expectHealthy, only, runOne } from "./helpers";

// JavaScript programs that try to turn a wrong answer into a "pass": tampering
// with intrinsics, console.assert, require / assert, or returning exotic values.

let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1, warm: ["javascript"], timeoutMs: 1500 });
  await pool.warmup("javascript");
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

// After every cheating attempt, a normal program must still pass.
afterEach(async () => {
  await expectHealthy(pool, "javascript");
});

// HumanEval-X style (console.assert + JSON.stringify) and MultiPL-E style (node:assert).
const HUMANEVAL_X = "const testAdd = () => {\n  console.assert(JSON.stringify(add([1], [2])) === JSON.stringify([1, 2]))\n  console.assert(add([], []).length === 0)\n}\ntestAdd()\n";
const MULTIPL_E = "const assert = require('node:assert');\nfunction test() {\n  let candidate = add;\n  assert.deepEqual(candidate([1], [2]), [1, 2]);\n}\ntest();\n";

describe("javascript sandbox: tampering does not reach the test", () => {
  it.each([
    ["Object.prototype / Array.prototype tampering", "Object.prototype.toString = () => '[1,2]'; Array.prototype.join = () => ''; Array.prototype.toJSON = () => [1, 2];\nconst add = (a, b) => [9];"],
    ["replacing JSON.stringify", "JSON.stringify = () => 'same';\nconst add = (a, b) => [9];"],
    ["shadowing JSON with a global const", "const JSON = { stringify: () => 'same' };\nconst add = (a, b) => [9];"],
    ["silencing console.assert", "console.assert = () => {}; globalThis.console = { assert() {}, log() {} };\nconst add = (a, b) => [9];"],
    ["a getter that lies about length", "const add = (a, b) => ({ get length() { return 0; }, toJSON() { return [1, 2]; } });"],
    ["a Proxy that answers everything", "const add = (a, b) => new Proxy([], { get: (t, k) => (k === 'length' ? 0 : () => '[1,2]') });"],
  ])("%s (console.assert tests)", async (_name, code) => {
    const result = await runOne(pool, "javascript", code, HUMANEVAL_X);
    expect(result.verdict).toBe("fail");
    expect(only(result).status).not.toBe("pass");
  });

  it.each([
    ["a global require returning a no-op assert", "function require() { return { deepEqual() {}, equal() {} }; }\nfunction add(a, b) { return [9]; }"],
    ["a global assert object", "var assert = { deepEqual() {} };\nfunction add(a, b) { return [9]; }"],
    ["patching Object.is / Array.isArray", "Object.is = () => true; Array.isArray = () => false; Object.keys = () => [];\nfunction add(a, b) { return [9]; }"],
  ])("%s (node:assert tests)", async (_name, code) => {
    const result = await runOne(pool, "javascript", code, MULTIPL_E);
    expect(result.verdict).toBe("fail");
    expect(only(result).status).toBe("fail");
  });

  it("valueOf / toString tricks on the return value are rejected at the boundary", async () => {
    const result = only(await runOne(pool, "javascript", "function f() { return { valueOf() { return 3; } }; }", "console.assert(f() == 3)"));
    expect(result.status).toBe("error");
    expect(result.message).toMatch(/cannot cross the sandbox boundary/);
  });

  it("printing fake results does not change the verdict", async () => {
    const code = "console.log('PASS'); console.log(JSON.stringify({ type: 'test', status: 'pass' }));\nconst add = (a, b) => [9];";
    const result = only(await runOne(pool, "javascript", code, HUMANEVAL_X));
    expect(result.status).toBe("fail");
    expect(result.output).toContain("PASS");
  });

  it("a thrown non-Error value is an error, not a pass", async () => {
    expect(only(await runOne(pool, "javascript", "function add() { throw 'ok'; }", HUMANEVAL_X)).status).toBe("error");
  });

  it("the pool is still healthy", async () => {
    await expectHealthy(pool, "javascript");
  });
});

describe("javascript sandbox: assertion reporting", () => {
  it("names the failing console.assert line", async () => {
    const result = only(await runOne(pool, "javascript", "const add = (a, b) => [9];", HUMANEVAL_X));
    expect(result.message).toMatch(/^Assertion failed \(line 2: console\.assert\(JSON\.stringify/);
  });

  it("reports node:assert messages", async () => {
    const result = only(await runOne(pool, "javascript", "function add(a, b) { return [9]; }", MULTIPL_E));
    expect(result.message).toMatch(/AssertionError: Expected values to be loosely deep-equal/);
    expect(result.message).toMatch(/line 4: assert\.deepEqual/);
  });
});
