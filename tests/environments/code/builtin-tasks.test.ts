import { transformSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comparedExpression } from "@/lib/environments/code/assert-lines";
import { builtinCodeDemoScripts } from "@/lib/environments/code/builtin-demo-scripts";
import { builtinCodeTasks } from "@/lib/environments/code/builtin-tasks";
import { codeTaskSchema, type CodeTask } from "@/lib/environments/code/task";
import { createSandboxPool, type SandboxPool, type SandboxTest, type TestStatus } from "@/lib/sandbox";

// The built-in code tasks and the demo model's scripts on them, run in the real
// sandbox: reference, naive and informed programs against the hidden tests and
// against the internal tests that parse.

const FALSE_POSITIVES = ["code-py-07", "code-ts-03"];
const WITH_BAD_LINE = ["code-py-03", "code-js-02"];
const JS_ASSERT = 'const assert = require("node:assert");\n';
/**
 * Entry-point calls that an internal test may share with a hidden test: only
 * code-py-01's empty string, the one input that makes its naive program fail,
 * which e2e/code-task.spec.ts shows as the failing internal test.
 */
const SHARED_CALLS: Readonly<Record<string, readonly string[]>> = { "code-py-01": ['run_length_encode("")'] };

let pool: SandboxPool;

/** `text` without the whitespace outside its string literals (and without a trailing `;`). */
function squeeze(text: string): string {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quote) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === "`") {
      quote = ch;
      out += ch;
    } else if (!/\s/.test(ch)) out += ch;
  }
  return out.replace(/;$/, "");
}

/** Every call `name(...)` in `text`, squeezed; an unclosed call runs to the end of the text. */
function callsOf(text: string, name: string): string[] {
  const calls: string[] = [];
  for (const match of text.matchAll(new RegExp(`(?<![\\w$.])${name}\\s*\\(`, "g"))) {
    let depth = 0;
    let quote: string | null = null;
    let end = text.length;
    for (let i = match.index + match[0].length - 1; i < text.length; i += 1) {
      const ch = text[i]!;
      if (quote) {
        if (ch === "\\") i += 1;
        else if (ch === quote) quote = null;
      } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
      else if ("([{".includes(ch)) depth += 1;
      else if (")]}".includes(ch) && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    calls.push(squeeze(text.slice(match.index, end)));
  }
  return calls;
}

/** The hidden test's assert lines, with Python's `candidate(` written as the entry point. */
function hiddenLines(task: CodeTask): string[] {
  const lines = task.hiddenTests.split("\n").map((line) => line.trim());
  if (task.language === "python") return lines.filter((line) => line.startsWith("assert ")).map((line) => line.replaceAll("candidate(", `${task.entryPoint}(`));
  return lines.filter((line) => line.startsWith("assert."));
}

/** Every entry-point call of the hidden tests, squeezed. */
function hiddenCalls(task: CodeTask): Set<string> {
  return new Set(hiddenLines(task).flatMap((line) => callsOf(line, task.entryPoint)));
}

interface ProgramRun {
  hidden: TestStatus;
  /** One status per parsing internal test line. */
  internal: TestStatus[];
}

interface TaskRun {
  parsing: string[];
  failingToParse: string[];
  reference: ProgramRun;
  naive: ProgramRun;
  informed: ProgramRun;
}

const runs = new Map<string, TaskRun>();

function scriptOf(task: CodeTask) {
  const script = builtinCodeDemoScripts[task.id];
  if (!script) throw new Error(`no demo script for ${task.id}`);
  return script;
}

async function parses(task: CodeTask, lines: string[]): Promise<boolean[]> {
  if (task.language !== "python") {
    return lines.map((line) => {
      try {
        transformSync(line, { loader: task.language === "typescript" ? "ts" : "js" });
        return true;
      } catch {
        return false;
      }
    });
  }
  const result = await pool.runTests({
    language: "python",
    code: "pass\n",
    tests: lines.map((line, i) => ({ name: `parse ${i}`, code: `compile(${JSON.stringify(line)}, "<t>", "exec")` })),
  });
  return result.tests.map((test) => test.status === "pass");
}

async function runProgram(task: CodeTask, code: string, internal: string[]): Promise<ProgramRun> {
  const prefix = task.language === "python" ? "" : JS_ASSERT;
  const tests: SandboxTest[] = [{ name: "hidden", code: task.hiddenTests }, ...internal.map((line, i) => ({ name: `internal ${i}`, code: prefix + line }))];
  const result = await pool.runTests({ language: task.language, code, entryPoint: task.entryPoint, tests, timeoutMs: 10_000 });
  return { hidden: result.tests[0]!.status, internal: result.tests.slice(1).map((test) => test.status) };
}

async function runTask(task: CodeTask): Promise<TaskRun> {
  const script = scriptOf(task);
  const ok = await parses(task, script.internalTests);
  const parsing = script.internalTests.filter((_, i) => ok[i]);
  const failingToParse = script.internalTests.filter((_, i) => !ok[i]);
  const [reference, naive, informed] = await Promise.all([task.referenceSolution!, script.naive, script.informed].map((code) => runProgram(task, code, parsing)));
  return { parsing, failingToParse, reference: reference!, naive: naive!, informed: informed! };
}

beforeAll(async () => {
  pool = createSandboxPool({ size: 2 });
  await pool.warmup();
  const results = await Promise.all(builtinCodeTasks.map(async (task) => [task.id, await runTask(task)] as const));
  for (const [id, run] of results) runs.set(id, run);
}, 240_000);

afterAll(async () => {
  await pool?.close();
});

describe("the built-in code task set", () => {
  it("parses with the schema, with unique ids and entry points, 10 Python and 10 JS/TS tasks", () => {
    for (const task of builtinCodeTasks) expect(codeTaskSchema.parse(task)).toEqual(task);
    expect(new Set(builtinCodeTasks.map((task) => task.id)).size).toBe(builtinCodeTasks.length);
    expect(new Set(builtinCodeTasks.map((task) => task.entryPoint)).size).toBe(builtinCodeTasks.length);
    expect(builtinCodeTasks.filter((task) => task.language === "python")).toHaveLength(10);
    expect(builtinCodeTasks.filter((task) => task.language !== "python").length).toBeGreaterThanOrEqual(10);
    expect(builtinCodeTasks.map((task) => task.id)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `code-py-${String(i + 1).padStart(2, "0")}`),
      ...Array.from({ length: 5 }, (_, i) => `code-js-0${i + 1}`),
      ...Array.from({ length: 5 }, (_, i) => `code-ts-0${i + 1}`),
    ]);
  });

  it("has one demo script per task, exactly two false positives", () => {
    expect(Object.keys(builtinCodeDemoScripts).sort()).toEqual(builtinCodeTasks.map((task) => task.id).sort());
    const falsePositives = builtinCodeTasks.filter((task) => scriptOf(task).kind === "false-positive").map((task) => task.id);
    expect(falsePositives).toEqual(FALSE_POSITIVES);
  });

  it("exactly two tasks have one internal test line that does not parse", () => {
    const withBadLine = builtinCodeTasks.filter((task) => runs.get(task.id)!.failingToParse.length > 0).map((task) => task.id);
    expect(withBadLine).toEqual(WITH_BAD_LINE);
    for (const id of WITH_BAD_LINE) {
      const [bad, ...rest] = runs.get(id)!.failingToParse;
      expect(rest).toEqual([]);
      expect(bad).toContain("assert");
    }
  });

  describe.each(builtinCodeTasks.map((task) => [task.id, task] as const))("%s", (id, task) => {
    const script = builtinCodeDemoScripts[id]!;
    const shared = new Set(SHARED_CALLS[id] ?? []);

    it("writes internal tests that copy no hidden test: no equal line, no hidden call with the same arguments", () => {
      const hidden = new Set(hiddenLines(task).map(squeeze));
      expect(hidden.size).toBeGreaterThanOrEqual(6);
      const calls = hiddenCalls(task);
      for (const line of script.internalTests) {
        const own = callsOf(line, task.entryPoint);
        expect(own.length, line).toBeGreaterThanOrEqual(1);
        expect(own.filter((call) => calls.has(call) && !shared.has(call)), line).toEqual([]);
        if (!own.some((call) => shared.has(call))) expect(hidden.has(squeeze(line)), line).toBe(false);
      }
      // Every allowed overlap is still needed, so the list cannot go stale.
      for (const call of shared) {
        expect(calls.has(call)).toBe(true);
        expect(script.internalTests.some((line) => callsOf(line, task.entryPoint).includes(call))).toBe(true);
      }
    });

    it("has a reflection that names no hidden test's call (fail-then-pass: only calls of internal tests the naive program fails)", () => {
      const named = callsOf(script.reflection, task.entryPoint);
      const calls = hiddenCalls(task);
      expect(named.filter((call) => calls.has(call) && !shared.has(call))).toEqual([]);
      if (script.kind === "fail-then-pass") {
        expect(named.length).toBeGreaterThanOrEqual(1);
        const run = runs.get(id)!;
        const failing = run.parsing.filter((_, i) => run.naive.internal[i] !== "pass").flatMap((line) => callsOf(line, task.entryPoint));
        for (const call of named) expect(failing).toContain(call);
      }
    });

    it("has a prompt naming the entry point and a reflection holding every lesson keyword", () => {
      expect(task.prompt).toContain(task.entryPoint);
      expect(task.setup).toBeNull();
      expect(task.sourceFormat).toBe("builtin");
      expect(script.lessonKeywords.length).toBeGreaterThanOrEqual(1);
      expect(script.lessonKeywords.length).toBeLessThanOrEqual(2);
      for (const keyword of script.lessonKeywords) expect(script.reflection.toLowerCase()).toContain(keyword.toLowerCase());
    });

    it("has 3 to 5 parsing internal tests that the reference and the informed program pass", () => {
      const run = runs.get(id)!;
      expect(run.parsing.length).toBeGreaterThanOrEqual(3);
      expect(run.parsing.length).toBeLessThanOrEqual(5);
      expect(run.reference.internal.every((status) => status === "pass")).toBe(true);
      expect(run.informed.internal.every((status) => status === "pass")).toBe(true);
    });

    it("reference and informed pass the hidden tests, naive fails them", () => {
      const run = runs.get(id)!;
      expect(run.reference.hidden).toBe("pass");
      expect(run.informed.hidden).toBe("pass");
      expect(run.naive.hidden).not.toBe("pass");
    });

    it(script.kind === "false-positive" ? "naive passes every internal test (false positive)" : "naive fails at least one internal test", () => {
      const run = runs.get(id)!;
      const naivePassesAll = run.naive.internal.every((status) => status === "pass");
      expect(naivePassesAll).toBe(script.kind === "false-positive");
    });

    it("compares a call of the entry point in every internal test the naive program fails, so the feedback can show its value", () => {
      const run = runs.get(id)!;
      const failing = run.parsing.filter((_, i) => run.naive.internal[i] !== "pass");
      for (const line of failing) expect(comparedExpression(line, task.language), line).toMatch(new RegExp(`^${task.entryPoint}\\(.*\\)$`, "s"));
    });
  });
});
