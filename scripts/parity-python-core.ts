import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { decodeBuffer, loadCodeTasks, type CodeTask } from "@/lib/environments/code";
import type { SandboxPool, TestStatus } from "@/lib/sandbox";

/**
 * Verdict parity of the Python sandbox with CPython (decision 0019).
 *
 * For every assert of a dataset (HumanEval: each statement of `check` that holds an
 * assert, the other statements kept; MBPP: each `test_list` and `challenge_test_list`
 * entry), the reference solution runs once under the machine's `python3`
 * (scripts/parity-python-oracle.py: a forked process per assert, `setup + code +
 * test`, 3 s limit, like the official harnesses) and once in the sandbox (the same
 * setup, code and test, through the project's own loader). A verdict is `pass` or
 * not; the statuses (`fail`, `error`, `timeout`) are compared too.
 */

/** One assert's outcome on both sides. */
export interface ParityUnit {
  id: string;
  /** Index of the assert within the problem. */
  unit: number;
  /** The test code of this assert. */
  test: string;
  cpython: { status: TestStatus; message: string };
  sandbox: { status: TestStatus; message: string };
}

/** Figures for one dataset file. */
export interface ParityReport {
  dataset: string;
  /** Problems with a reference solution that were checked. */
  problems: number;
  asserts: number;
  /** Asserts whose verdict (pass / not pass) is the same on both sides. */
  identicalVerdicts: number;
  /** Asserts whose status (pass / fail / error / timeout) is the same on both sides. */
  identicalStatuses: number;
  /** Asserts CPython itself does not pass (known upstream failures): the sandbox must fail them too. */
  cpythonNotPassing: number;
  /** Asserts whose verdicts differ. */
  differences: ParityUnit[];
  /** Same verdict, different kind of failure (e.g. CPython `error`, sandbox `fail`). */
  statusDifferences: ParityUnit[];
  /** Records the loader skipped, with its reason. */
  skipped: string[];
}

/** The machine's CPython 3 as `{ command, version }`, or null when there is none. */
export function findPython(): { command: string; version: string } | null {
  for (const command of [process.env.PARITY_PYTHON, "python3", "python"].filter((c): c is string => Boolean(c))) {
    const probe = spawnSync(command, ["-c", "import sys; print(sys.version.split()[0]); sys.exit(0 if sys.version_info >= (3, 9) else 1)"], { encoding: "utf8" });
    if (probe.status === 0) return { command, version: probe.stdout.trim() };
  }
  return null;
}

interface OracleProblem {
  id: string;
  setup: string;
  code: string;
  tests: string[];
  suffix: string;
  timeout: number;
}

interface OracleUnit {
  id: string;
  unit: number;
  test: string;
  status: TestStatus;
  message: string;
}

/** Raw records of a dataset file (JSON Lines or a JSON array), for the MBPP test lists. */
function rawRecords(content: string): Array<Record<string, unknown>> {
  const trimmed = content.trimStart();
  const values: unknown[] = trimmed.startsWith("[")
    ? (JSON.parse(trimmed) as unknown[])
    : content.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as unknown);
  return values.filter((value): value is Record<string, unknown> => typeof value === "object" && value !== null);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item.trim() !== "") : [];
}

/** The oracle's problems for a file: the loader's tasks plus each record's own assert list. */
export function oracleProblems(file: string, limit?: number): { problems: OracleProblem[]; tasks: Map<string, CodeTask>; skipped: string[] } {
  const content = decodeBuffer(fs.readFileSync(file));
  const { tasks, problems: skipped } = loadCodeTasks(content, { language: "python", limit });
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const records = rawRecords(content);
  const out: OracleProblem[] = [];
  for (const record of records) {
    const mbpp = "test_list" in record;
    const id = mbpp ? `mbpp/${String(record.task_id)}` : String(record.task_id ?? "");
    const task = byId.get(id);
    if (!task || task.referenceSolution === null) continue;
    const timeout = (task.timeoutMs ?? 3000) / 1000;
    if (mbpp) {
      const tests = [...strings(record.test_list), ...strings(record.challenge_test_list)];
      out.push({ id, setup: task.setup ?? "", code: task.referenceSolution, tests, suffix: "", timeout });
    } else {
      out.push({ id, setup: task.setup ?? "", code: task.referenceSolution, tests: [String(record.test)], suffix: `check(${task.entryPoint})`, timeout });
    }
  }
  return { problems: out, tasks: byId, skipped };
}

/** Runs the CPython oracle on `problems` (one forked process per assert). */
export function runOracle(python: string, problems: OracleProblem[]): OracleUnit[] {
  const oracle = path.join(path.dirname(new URL(import.meta.url).pathname), "parity-python-oracle.py");
  const result = spawnSync(python, [oracle], { input: JSON.stringify(problems), encoding: "utf8", maxBuffer: 512 * 2 ** 20 });
  if (result.status !== 0) throw new Error(`the CPython oracle failed: ${(result.stderr || result.error?.message || "").slice(-2000)}`);
  return JSON.parse(result.stdout) as OracleUnit[];
}

const passed = (status: TestStatus) => status === "pass";

/** Checks one dataset file: CPython oracle, then the sandbox, assert by assert. */
export async function checkParity(
  file: string,
  pool: Pick<SandboxPool, "runTests">,
  options: { python: string; limit?: number; concurrency?: number } ,
): Promise<ParityReport> {
  const { problems, tasks, skipped } = oracleProblems(file, options.limit);
  const units = runOracle(options.python, problems);
  const byProblem = new Map<string, OracleUnit[]>();
  for (const unit of units) byProblem.set(unit.id, [...(byProblem.get(unit.id) ?? []), unit]);
  const compared: ParityUnit[] = [];
  const queue = [...byProblem.entries()];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [id, list] = next;
      const task = tasks.get(id)!;
      const problem = problems.find((p) => p.id === id)!;
      const run = await pool.runTests({
        language: "python",
        setup: task.setup ?? undefined,
        code: task.referenceSolution!,
        entryPoint: task.entryPoint,
        tests: list.map((unit) => ({ name: `assert ${unit.unit}`, code: problem.suffix ? `${unit.test}\n${problem.suffix}\n` : unit.test })),
        timeoutMs: task.timeoutMs,
      });
      list.forEach((unit, index) => {
        const got = run.tests[index]!;
        compared.push({ id, unit: unit.unit, test: unit.test, cpython: { status: unit.status, message: unit.message }, sandbox: { status: got.status, message: got.message } });
      });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, lane));
  compared.sort((a, b) => (a.id === b.id ? a.unit - b.unit : a.id < b.id ? -1 : 1));
  const differences = compared.filter((u) => passed(u.cpython.status) !== passed(u.sandbox.status));
  const statusDifferences = compared.filter((u) => passed(u.cpython.status) === passed(u.sandbox.status) && u.cpython.status !== u.sandbox.status);
  return {
    dataset: file,
    problems: byProblem.size,
    asserts: compared.length,
    identicalVerdicts: compared.length - differences.length,
    cpythonNotPassing: compared.filter((u) => !passed(u.cpython.status)).length,
    identicalStatuses: compared.length - differences.length - statusDifferences.length,
    differences,
    statusDifferences,
    skipped,
  };
}

/** The report as printed by `npm run parity:python`. */
export function formatParityReport(report: ParityReport, examples = 5): string {
  const lines = [
    `${report.dataset}: ${report.problems} problems, ${report.asserts} asserts, ${report.identicalVerdicts} identical verdicts (CPython fails ${report.cpythonNotPassing}), ${report.differences.length} differences` +
      ` (statuses: ${report.identicalStatuses} identical, ${report.statusDifferences.length} differ in kind only)`,
  ];
  const show = (unit: ParityUnit) =>
    `    ${unit.id} #${unit.unit}: CPython ${unit.cpython.status}${unit.cpython.message ? ` (${unit.cpython.message.slice(0, 120)})` : ""}; sandbox ${unit.sandbox.status}${unit.sandbox.message ? ` (${unit.sandbox.message.slice(0, 160)})` : ""}\n      ${unit.test.split("\n").filter((l) => /assert/.test(l))[0]?.trim().slice(0, 160) ?? ""}`;
  if (report.differences.length > 0) lines.push("  differences:", ...report.differences.slice(0, examples).map(show));
  if (report.statusDifferences.length > 0) lines.push("  same verdict, other status:", ...report.statusDifferences.slice(0, examples).map(show));
  if (report.skipped.length > 0) lines.push(`  records the loader skipped: ${report.skipped.length} (${report.skipped.slice(0, 2).join("; ")})`);
  return lines.join("\n");
}
