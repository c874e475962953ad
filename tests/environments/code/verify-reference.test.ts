import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatVerificationReport, loadCodeTasks, readCodeTaskFile, summarizeVerification, verifyReferenceSolutions, type CodeTask } from "@/lib/environments/code";
import { createSandboxPool, type SandboxPool } from "@/lib/sandbox";
import { MBPP_FIXTURE, SHARED_DATA } from "./fixtures";

// Reference solutions run against their hidden tests in the real sandbox. The full
// 164-task runs are in bench/code.bench.ts; here a few tasks of each format.

let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 2 });
  await pool.warmup();
}, 60_000);

afterAll(async () => {
  await pool?.close();
});

const load = (relative: string) => readCodeTaskFile(path.join(SHARED_DATA, relative)).tasks;

describe("verifyReferenceSolutions", () => {
  it("passes HumanEval canonical solutions (incl. helper-using tasks 32, 38, 50)", async () => {
    const wanted = new Set(["HumanEval/0", "HumanEval/1", "HumanEval/2", "HumanEval/32", "HumanEval/38", "HumanEval/50", "HumanEval/160", "HumanEval/163"]);
    const tasks = load("humaneval/HumanEval.jsonl.gz").filter((task) => wanted.has(task.id));
    const results = await verifyReferenceSolutions(tasks, pool);
    expect(results.map((r) => [r.id, r.verdict])).toEqual(tasks.map((task) => [task.id, "pass"]));
  });

  it("fails a broken reference and says why", async () => {
    const task = load("humaneval/HumanEval.jsonl.gz")[0]!;
    const broken: CodeTask = { ...task, id: "broken/0", referenceSolution: `${task.prompt}    return False\n` };
    const [result] = await verifyReferenceSolutions([broken], pool);
    expect(result!.verdict).toBe("fail");
    expect(result!.failures[0]).toMatchObject({ test: "hidden", status: "fail" });
    expect(result!.failures[0]!.message).toMatch(/AssertionError \(line \d+: assert candidate\(/);
  });

  it("HumanEval-X: passes JavaScript/0, fails the known-broken 112 (canonical/test mismatch) and 162 (needs js-md5)", async () => {
    const wanted = ["JavaScript/0", "JavaScript/10", "JavaScript/38", "JavaScript/112", "JavaScript/162"];
    const tasks = load("humaneval-js-ts/humaneval-x-js.jsonl.gz").filter((task) => wanted.includes(task.id));
    const results = await verifyReferenceSolutions(tasks, pool);
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(["JavaScript/0", "JavaScript/10", "JavaScript/38"].map((id) => byId.get(id)!.verdict)).toEqual(["pass", "pass", "pass"]);
    expect(byId.get("JavaScript/112")!.failures[0]!.message).toMatch(/^Assertion failed/);
    expect(byId.get("JavaScript/162")!.failures[0]!.message).toMatch(/Cannot find module 'js-md5'/);
  });

  it("skips MultiPL-E tasks (no solutions) and runs a TypeScript solution against a MultiPL-E TS test", async () => {
    const [strlen] = load("humaneval-js-ts/multipl-e-humaneval-ts.jsonl");
    const [skipped] = await verifyReferenceSolutions([strlen!], pool);
    expect(skipped!.verdict).toBe("skipped");
    const solved: CodeTask = { ...strlen!, referenceSolution: `${strlen!.prompt}  return string.length;\n}\n` };
    const [result] = await verifyReferenceSolutions([solved], pool);
    expect(result).toMatchObject({ verdict: "pass", failures: [] });
  });

  it("passes the MBPP fixture, set-up code included", async () => {
    const { tasks } = loadCodeTasks(MBPP_FIXTURE.map((record) => JSON.stringify(record)).join("\n"));
    const results = await verifyReferenceSolutions(tasks, pool);
    expect(results.map((r) => r.verdict)).toEqual(["pass", "pass", "pass"]);
  });

  it("formats the CLI report: failing ids, then `N passed, M failed`", () => {
    const report = formatVerificationReport([
      { id: "a", verdict: "pass", failures: [], durationMs: 1 },
      { id: "b", verdict: "fail", failures: [{ test: "hidden", status: "timeout", message: "time limit exceeded", output: "" }], durationMs: 1 },
      { id: "c", verdict: "skipped", failures: [], durationMs: 0 },
    ]);
    expect(report.split("\n")).toEqual(["FAIL b: timeout: time limit exceeded", "1 passed, 1 failed, 1 skipped"]);
    expect(summarizeVerification([])).toEqual({ passed: 0, failed: 0, skipped: 0, failedIds: [] });
  });
});
