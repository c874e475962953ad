import { describe, expect, it } from "vitest";
import { candidateTestLines, comparedExpression, MAX_INTERNAL_TESTS } from "@/lib/environments/code/assert-lines";
import { extractCode } from "@/lib/environments/code/extract-code";
import { formatFeedback, splitHiddenTests } from "@/lib/environments/code/test-runs";
import { createCodeEnvironment, type CodeTask } from "@/lib/environments/code";
import type { CodeTestResult } from "@/lib/domain/code-trial";

/** The code family's pure parts: code extraction, the assert filter, feedback and hidden-test splitting. */

describe("extractCode (reference parse_code_block)", () => {
  it("prefers the block tagged with the task's language, keeps the prose apart", () => {
    const completion = "Here you go:\n```text\nnot this\n```\n```python\ndef f():\n    return 1\n```\nDone.";
    expect(extractCode(completion, "python")).toEqual({ code: "def f():\n    return 1", prose: "Here you go:\n```text\nnot this\n```\n\nDone." });
  });
  it("falls back to an untagged block, then to a fence-less program, then to nothing", () => {
    expect(extractCode("```\nconst a = 1;\n```", "javascript").code).toBe("const a = 1;");
    expect(extractCode("def g(x):\n    return x", "python").code).toBe("def g(x):\n    return x");
    expect(extractCode("I cannot help with that.", "python")).toEqual({ code: "", prose: "I cannot help with that." });
  });
  it("accepts the common tag spellings (ts, js, py) and an unterminated block", () => {
    expect(extractCode("```ts\nlet x: number = 1;\n```", "typescript").code).toBe("let x: number = 1;");
    expect(extractCode("```py\nx = 1", "python").code).toBe("x = 1");
  });
});

describe("internal test lines (reference §4.3)", () => {
  it("keeps lines with assert, stripped and de-duplicated, and skips comments and the assert import", () => {
    const code = 'const assert = require("node:assert");\n  assert.deepStrictEqual(f(1), 2);\n// assert nothing\nassert.deepStrictEqual(f(1), 2);\nconsole.log(1)\nconsole.assert(f(2) === 3);';
    expect(candidateTestLines(code)).toEqual(["assert.deepStrictEqual(f(1), 2);", "console.assert(f(2) === 3);"]);
    expect(MAX_INTERNAL_TESTS).toBe(5);
  });
  it("finds the compared call in Python and JavaScript asserts, ignoring == inside strings and brackets", () => {
    expect(comparedExpression('assert f("a==b", [1 == 1]) == 3', "python")).toBe('f("a==b", [1 == 1])');
    expect(comparedExpression("assert f(1) == 2, 'message'", "python")).toBe("f(1)");
    expect(comparedExpression("assert is_ok(3)", "python")).toBe("is_ok(3)");
    expect(comparedExpression("assert not is_ok(3)", "python")).toBe("is_ok(3)");
    expect(comparedExpression('assert balanced("((x)") is False', "python")).toBe('balanced("((x)")');
    expect(comparedExpression("assert f(1) is not None", "python")).toBe("f(1)");
    expect(comparedExpression("assert f(1) != 2", "python")).toBe("f(1)");
    expect(comparedExpression("assert f([1, 2]) not in [[1]]", "python")).toBe("f([1, 2])");
    expect(comparedExpression("assert len(f(1)) <= 3", "python")).toBe("len(f(1))");
    expect(comparedExpression("assert x", "python")).toBeNull();
    expect(comparedExpression('assert.deepStrictEqual(g([1, 2], "a,b"), [3]);', "javascript")).toBe("g([1, 2], \"a,b\")");
    expect(comparedExpression("console.assert(h(1) === 2);", "typescript")).toBe("h(1)");
    expect(comparedExpression("assert.ok(h(1));", "javascript")).toBe("h(1)");
    expect(comparedExpression("assert(!h(1));", "javascript")).toBe("h(1)");
    expect(comparedExpression("console.assert(h(1) !== 2, 'msg');", "javascript")).toBe("h(1)");
    expect(comparedExpression("assert.notStrictEqual(h(1), 2);", "typescript")).toBe("h(1)");
    expect(comparedExpression("assert.ok(flag);", "javascript")).toBeNull();
  });
});

describe("formatFeedback", () => {
  const result = (code: string, status: CodeTestResult["status"], actual: string | null, message = ""): CodeTestResult => ({ name: "t", code, status, message, output: "", actual, durationMs: 1 });
  it("uses the reference's layout and typo, with # output: values (// output: for JavaScript)", () => {
    const results = [result("assert f(1) == 1", "pass", null), result("assert f(2) == 4", "fail", "3"), result("assert f(3) == 9", "timeout", "TIMEOUT")];
    expect(formatFeedback(results, "python")).toBe("Tested passed:\nassert f(1) == 1\n\nTests failed:\nassert f(2) == 4 # output: 3\nassert f(3) == 9 # output: TIMEOUT");
    expect(formatFeedback([result("assert.ok(f());", "fail", null, "AssertionError: false (line 2: x)")], "javascript")).toBe(
      "Tested passed:\n\n\nTests failed:\nassert.ok(f()); // output: AssertionError: false",
    );
  });
});

describe("splitHiddenTests", () => {
  const base: CodeTask = { id: "t", language: "python", prompt: "def f(x):\n", entryPoint: "f", hiddenTests: "", referenceSolution: null, setup: null, sourceFormat: "builtin" };
  it("splits a HumanEval check made only of one-line asserts into one test per assert", () => {
    const tests = splitHiddenTests({ ...base, hiddenTests: "def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(2) == 4\n\ncheck(f)\n" });
    expect(tests).toEqual([
      { name: "hidden 1", code: "candidate = f\nassert candidate(1) == 1" },
      { name: "hidden 2", code: "candidate = f\nassert candidate(2) == 4" },
    ]);
  });
  it("keeps a check with set-up lines or multi-line statements whole", () => {
    const hiddenTests = "def check(candidate):\n    import math\n    assert candidate(1) == 1\n\ncheck(f)\n";
    expect(splitHiddenTests({ ...base, hiddenTests })).toEqual([{ name: "hidden", code: hiddenTests }]);
  });
  it("splits MBPP-style assert lists and JavaScript assert lines (keeping the require)", () => {
    expect(splitHiddenTests({ ...base, hiddenTests: "assert f(1) == 1\nassert f(2) == 4" })).toHaveLength(2);
    const js = splitHiddenTests({ ...base, language: "javascript", hiddenTests: 'const assert = require("node:assert");\nassert.deepStrictEqual(f(1), 1);\nassert.deepStrictEqual(f(2), 4);\n' });
    expect(js.map((t) => t.code)).toEqual(['const assert = require("node:assert");\nassert.deepStrictEqual(f(1), 1);', 'const assert = require("node:assert");\nassert.deepStrictEqual(f(2), 4);']);
  });
});

describe("the code family's Actor prompt", () => {
  const family = createCodeEnvironment({ sandbox: { runTests: () => Promise.reject(new Error("no sandbox in this test")) } });
  const task: CodeTask = { id: "t", language: "python", prompt: 'def f(x):\n    """Double x."""\n', entryPoint: "f", hiddenTests: "def check(candidate):\n    assert candidate(2) == 4\n\ncheck(f)\n", referenceSolution: null, setup: null, sourceFormat: "builtin" };
  it("asks for tests in trial 1 step 1, for an implementation in step 2, and never exposes the hidden tests as a variable", () => {
    const variables = { ...family.promptVariables(task, "reflexion") };
    expect(Object.values(variables).join("\n")).not.toContain("check(candidate)");
    const tests = family.actorVariables!(task, { trial: 1, step: 1, strategy: "reflexion", steps: [], earlierTrials: [] });
    expect(tests.scratchpad).toBe('[func signature]:\ndef f(x):\n    """Double x."""\n\n\n[unit tests]:\n');
    const kept = { kind: "code-tests-written", language: "python", kept: ["assert f(1) == 2"], dropped: [] };
    const impl = family.actorVariables!(task, { trial: 1, step: 2, strategy: "reflexion", steps: [{ step: 1, thought: "", actionText: "assert f(1) == 2", observation: "Kept 1", state: kept }], earlierTrials: [] });
    expect(impl.scratchpad?.trimEnd().endsWith("[implementation]:")).toBe(true);
  });
  it("parses the same text as tests in trial 1 step 1 and as an implementation elsewhere", () => {
    expect(family.parseAction("assert f(1) == 2", { trial: 1, step: 1 })).toMatchObject({ ok: true, action: { type: "WriteTests" } });
    expect(family.parseAction("def f(x): return 2 * x", { trial: 2, step: 1 })).toMatchObject({ ok: true, action: { type: "Implement" } });
    expect(family.parseAction("  ", { trial: 1, step: 2 })).toMatchObject({ ok: false });
  });
  it("rejects a broken task snapshot with a message naming the field", () => {
    expect(() => family.parseTask({ ...task, entryPoint: "not an identifier" })).toThrow(/entryPoint/);
  });
});
