import { transformSync } from "esbuild";
import type { CodeTestResult, CodeTestsWrittenState, HiddenTestReport } from "@/lib/domain/code-trial";
import type { RunTestsRequest, RunTestsResult, SandboxTest } from "@/lib/sandbox";
import { MAX_INTERNAL_TESTS, candidateTestLines, comparedExpression } from "./assert-lines";
import type { CodeLanguage, CodeTask } from "./task";

/**
 * Running a code trial's tests in the sandbox (reference §4.3–4.4): the syntax
 * filter for internal tests, the internal test run with the values the failing
 * calls returned, the feedback string the agent sees, and the hidden tests.
 */

/** The part of the sandbox pool the code family uses (a port, so tests may pass their own). */
export interface CodeSandbox {
  runTests(request: RunTestsRequest): Promise<RunTestsResult>;
}

/** `node:assert` for JavaScript/TypeScript internal tests, which the Actor writes as `assert.deepStrictEqual(...)`. */
const JS_TEST_PRELUDE = 'const assert = require("node:assert");\n';

/** Trusted set-up before Python candidates, as the reference's executor prepends it (§4.4). */
const PY_SETUP = "from typing import *";

function setupFor(task: CodeTask): string | undefined {
  if (task.language === "python") return task.setup ? `${PY_SETUP}\n${task.setup}` : PY_SETUP;
  return task.setup ?? undefined;
}

/**
 * The program that runs: the implementation, or, for a Python task whose prompt
 * also defines helpers or imports (HumanEval/10 `is_palindrome`, HumanEval/32
 * `poly`, …), the prompt followed by the implementation — what the official
 * harness runs (prompt + completion), so an implementation may call the prompt's
 * helpers without restating them. A Python prompt is always a valid module (its
 * last function has a docstring body), and the implementation's definition of the
 * entry point comes after it, so it wins.
 */
export function candidateProgram(task: CodeTask, implementation: string): string {
  if (task.language !== "python") return implementation;
  const topLevel = task.prompt.split("\n").filter((line) => /^(def|class|import|from)\s/.test(line));
  const onlyEntry = topLevel.length === 1 && new RegExp(`^def\\s+${task.entryPoint}\\b`).test(topLevel[0]!);
  return topLevel.length === 0 || onlyEntry ? implementation : `${task.prompt.trimEnd()}\n\n\n${implementation}`;
}

/**
 * The readable part of a `compile()` SyntaxError as the sandbox reports it,
 * e.g. `SyntaxError: ("'(' was never closed", ('<internal test>', 1, 11, …))` →
 * `'(' was never closed`.
 */
function pythonSyntaxReason(message: string): string {
  const head = message.split(" (line")[0] ?? message;
  const quoted = /^\w*Error: \((["'])(.*?)\1, \(/.exec(head);
  return quoted?.[2] ?? head;
}

/** Why a line does not parse in JavaScript/TypeScript, or null when it does (esbuild parses; nothing runs). */
function jsSyntaxError(line: string, language: CodeLanguage): string | null {
  try {
    transformSync(line, { loader: language === "typescript" ? "ts" : "js", logLevel: "silent" });
    return null;
  } catch (error) {
    const first = (error as { errors?: Array<{ text: string }> }).errors?.[0]?.text;
    return first ?? "does not parse";
  }
}

/**
 * Filters the Actor's test completion: candidate assert lines (assert-lines.ts),
 * the ones that parse kept in order up to {@link MAX_INTERNAL_TESTS}. The
 * reference samples 5 at random; we keep the first 5 so a run is reproducible
 * (decision 0010). Python lines are compiled (not run) in the sandbox.
 */
export async function filterInternalTests(code: string, language: CodeLanguage, sandbox: CodeSandbox): Promise<Omit<CodeTestsWrittenState, "kind" | "language">> {
  const candidates = candidateTestLines(code);
  const errors = new Map<string, string | null>();
  if (language === "python" && candidates.length > 0) {
    const run = await sandbox.runTests({
      language: "python",
      code: "pass",
      tests: candidates.map((line, index) => ({ name: `parse ${index + 1}`, code: `compile(${JSON.stringify(line)}, "<internal test>", "exec")` })),
    });
    candidates.forEach((line, index) => {
      const result = run.tests[index];
      errors.set(line, result?.status === "pass" ? null : `does not parse: ${pythonSyntaxReason(result?.message ?? "")}`);
    });
  } else {
    for (const line of candidates) {
      const error = jsSyntaxError(line, language);
      errors.set(line, error === null ? null : `does not parse: ${error}`);
    }
  }
  const kept: string[] = [];
  const dropped: CodeTestsWrittenState["dropped"] = [];
  for (const line of candidates) {
    const error = errors.get(line) ?? null;
    if (error !== null) dropped.push({ line, reason: error });
    else if (kept.length >= MAX_INTERNAL_TESTS) dropped.push({ line, reason: `only the first ${MAX_INTERNAL_TESTS} tests are kept` });
    else kept.push(line);
  }
  return { kept, dropped };
}

function testCode(line: string, language: CodeLanguage): string {
  return language === "python" ? line : JS_TEST_PRELUDE + line;
}

/** Prints the value of `expression` in the sandbox (`repr` in Python, JSON in JavaScript). */
function showCode(expression: string, language: CodeLanguage): string {
  if (language === "python") return `print(repr(${expression}))`;
  return `const __value = (${expression});\nconsole.log(__value === undefined ? "undefined" : JSON.stringify(__value));`;
}

/**
 * Fills `actual` of the results that did not pass with the value their assert's
 * compared call returns (one extra sandbox request; `TIMEOUT` on a time-out, the
 * error message when the call raises). `sources[i]` is result i's assert line and
 * the code that must run before it (imports, `candidate = f`).
 */
async function fillActualValues(
  task: CodeTask,
  base: Omit<RunTestsRequest, "tests">,
  results: CodeTestResult[],
  sources: ReadonlyArray<{ prelude: string; line: string } | null>,
  sandbox: CodeSandbox,
): Promise<void> {
  const probes = results.flatMap((result, index) => {
    const source = sources[index];
    if (result.status === "pass" || !source) return [];
    const expression = comparedExpression(source.line, task.language);
    return expression === null ? [] : [{ index, code: `${source.prelude}${source.prelude && !source.prelude.endsWith("\n") ? "\n" : ""}${showCode(expression, task.language)}` }];
  });
  if (probes.length === 0) return;
  const shown = await sandbox.runTests({ ...base, tests: probes.map((probe) => ({ name: `value ${probe.index + 1}`, code: probe.code })) });
  probes.forEach((probe, i) => {
    const value = shown.tests[i];
    const target = results[probe.index]!;
    if (!value) return;
    if (value.status === "pass") target.actual = value.output.trimEnd().split("\n").at(-1) ?? "";
    else if (value.status === "timeout") target.actual = "TIMEOUT";
    else target.actual = value.message.split(" (line")[0] ?? value.message;
  });
}

/**
 * Runs the internal tests, one sandbox test per assert, against `implementation`.
 * For failing asserts that compare a call, a second request evaluates the call to
 * show what it returned (the reference's `# output:` value; `TIMEOUT` on a time-out,
 * the error message when it raised).
 */
export async function runInternalTests(task: CodeTask, implementation: string, tests: readonly string[], sandbox: CodeSandbox): Promise<CodeTestResult[]> {
  if (tests.length === 0) return [];
  const base = { language: task.language, setup: setupFor(task), code: candidateProgram(task, implementation), entryPoint: task.entryPoint, timeoutMs: task.timeoutMs } as const;
  const run = await sandbox.runTests({ ...base, tests: tests.map((line, index) => ({ name: `internal ${index + 1}`, code: testCode(line, task.language) })) });
  const results: CodeTestResult[] = tests.map((line, index) => {
    const result = run.tests[index];
    return {
      name: `internal ${index + 1}`,
      code: line,
      status: result?.status ?? "error",
      message: result?.message ?? "the sandbox returned no result for this test",
      output: result?.output ?? "",
      actual: null,
      durationMs: result?.durationMs ?? 0,
    };
  });
  await fillActualValues(task, base, results, tests.map((line) => ({ prelude: task.language === "python" ? "" : JS_TEST_PRELUDE, line })), sandbox);
  return results;
}

/**
 * The feedback string the agent sees, in the reference's format (§4.4, typo kept):
 * `Tested passed:` and one passing assert per line, a blank line, `Tests failed:` and
 * `<assert> # output: <value>` (`// output:` for JavaScript/TypeScript).
 */
export function formatFeedback(results: readonly CodeTestResult[], language: CodeLanguage): string {
  const marker = language === "python" ? "# output:" : "// output:";
  const passed = results.filter((result) => result.status === "pass").map((result) => result.code);
  const failed = results
    .filter((result) => result.status !== "pass")
    .map((result) => `${result.code} ${marker} ${result.actual ?? firstLine(result.status === "timeout" ? "TIMEOUT" : result.message)}`);
  return `Tested passed:\n${passed.join("\n")}\n\nTests failed:\n${failed.join("\n")}`;
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").split(" (line")[0] ?? "";
}

/**
 * Splits a hidden test program into one sandbox test per assert when it is a plain
 * list of one-line asserts (MBPP `test_list`, our built-ins, a HumanEval `check` whose
 * body is only asserts), so the report shows which checks failed; otherwise runs it as
 * one test named `hidden`.
 */
export function splitHiddenTests(task: CodeTask): SandboxTest[] {
  const whole = [{ name: "hidden", code: task.hiddenTests }];
  const lines = task.hiddenTests.split("\n").filter((line) => line.trim() !== "");
  if (task.language === "python") {
    const check = /^def check\((\w+)\):$/.exec(lines[0] ?? "");
    if (check) {
      const body = lines.slice(1, -1);
      const call = lines.at(-1)?.trim() ?? "";
      const oneLineAsserts = body.every((line) => /^\s+assert .*$/.test(line) && balanced(line));
      if (!oneLineAsserts || call !== `check(${task.entryPoint})` || body.length === 0) return whole;
      return body.map((line, index) => ({ name: `hidden ${index + 1}`, code: `${check[1]} = ${task.entryPoint}\n${line.trim()}` }));
    }
    if (lines.length > 0 && lines.every((line) => /^assert /.test(line) && balanced(line))) {
      return lines.map((line, index) => ({ name: `hidden ${index + 1}`, code: line }));
    }
    return whole;
  }
  const prelude = lines.filter((line) => /^(const|let|var)\s+\w+\s*=\s*require\(["']node:assert["']\);?$/.test(line.trim()));
  const checks = lines.filter((line) => !prelude.includes(line));
  const oneLine = checks.length > 0 && checks.every((line) => /^\s*(assert|console\.assert)[\w.]*\s*\(.*\);?\s*$/.test(line) && balanced(line));
  if (!oneLine) return whole;
  return checks.map((line, index) => ({ name: `hidden ${index + 1}`, code: `${prelude.join("\n")}\n${line.trim()}` }));
}

/** True when brackets balance outside strings (a crude guard against multi-line statements). */
function balanced(line: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (quote) {
      if (ch === "\\") i += 1;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if ("([{".includes(ch)) depth += 1;
    else if (")]}".includes(ch)) depth -= 1;
  }
  return depth === 0 && quote === null;
}

/**
 * Runs the dataset's hidden tests against `implementation` (reporting only: the
 * result never reaches a prompt). `implementation` null (no code was written) fails
 * every hidden test without running anything.
 */
export async function runHiddenTests(task: CodeTask, implementation: string | null, sandbox: CodeSandbox): Promise<HiddenTestReport> {
  const tests = splitHiddenTests(task);
  if (implementation === null || implementation.trim() === "") {
    const results = tests.map((test) => ({ name: test.name, code: test.code, status: "error" as const, message: "no implementation was written", output: "", actual: null, durationMs: 0 }));
    return { verdict: "fail", passed: 0, total: results.length, tests: results, durationMs: 0 };
  }
  const base = { language: task.language, setup: setupFor(task), code: candidateProgram(task, implementation), entryPoint: task.entryPoint, timeoutMs: task.timeoutMs };
  const run = await sandbox.runTests({ ...base, tests });
  const results: CodeTestResult[] = tests.map((test, index) => {
    const result = run.tests[index];
    return {
      name: test.name,
      code: test.code,
      status: result?.status ?? "error",
      message: result?.message ?? "the sandbox returned no result for this test",
      output: result?.output ?? "",
      actual: null,
      durationMs: result?.durationMs ?? 0,
    };
  });
  // Reporting only: what the program returned on the failing hidden cases (split tests end with their assert line).
  const sources = tests.map((test) => {
    if (test.name === "hidden") return null;
    const lines = test.code.split("\n");
    return { prelude: lines.slice(0, -1).join("\n"), line: lines.at(-1) ?? "" };
  });
  await fillActualValues(task, base, results, sources, sandbox);
  const passed = results.filter((result) => result.status === "pass").length;
  return { verdict: run.verdict === "pass" && passed === results.length ? "pass" : "fail", passed, total: results.length, tests: results, durationMs: run.durationMs };
}
