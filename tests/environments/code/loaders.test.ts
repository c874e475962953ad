import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadCodeTasks, readCodeTaskFile } from "@/lib/environments/code";
import { MBPP_FIXTURE, SHARED_DATA } from "./fixtures";

const file = (relative: string) => path.join(SHARED_DATA, relative);

describe("code task loaders on the shared datasets", () => {
  it("loads HumanEval (.jsonl.gz): 164 tasks, hidden test = test + check(entry point)", () => {
    const { tasks, problems } = readCodeTaskFile(file("humaneval/HumanEval.jsonl.gz"));
    expect(problems).toEqual([]);
    expect(tasks).toHaveLength(164);
    const first = tasks[0]!;
    expect(first).toMatchObject({ id: "HumanEval/0", language: "python", entryPoint: "has_close_elements", sourceFormat: "humaneval", setup: null });
    expect(first.hiddenTests.trimEnd().endsWith("check(has_close_elements)")).toBe(true);
    expect(first.referenceSolution!.startsWith(first.prompt)).toBe(true);
    expect(tasks[163]!.id).toBe("HumanEval/163");
  });

  it("loads Reflexion's hardest50 subset (= HumanEval/114..163)", () => {
    const { tasks } = readCodeTaskFile(file("humaneval/reflexion-humaneval-py_hardest50.jsonl"));
    expect(tasks).toHaveLength(50);
    expect(tasks[0]!.id).toBe("HumanEval/114");
  });

  it("loads MultiPL-E JavaScript and TypeScript (no reference solutions)", () => {
    const js = readCodeTaskFile(file("humaneval-js-ts/multipl-e-humaneval-js.jsonl"));
    expect(js.problems).toEqual([]);
    expect(js.tasks).toHaveLength(161);
    expect(js.tasks[0]).toMatchObject({ id: "HumanEval_23_strlen", language: "javascript", entryPoint: "strlen", referenceSolution: null, sourceFormat: "multipl-e" });
    const ts = readCodeTaskFile(file("humaneval-js-ts/multipl-e-humaneval-ts.jsonl"));
    expect(ts.tasks).toHaveLength(159);
    expect(ts.tasks.every((task) => task.language === "typescript")).toBe(true);
  });

  it("loads HumanEval-X JavaScript (.jsonl.gz) with entry points from the declaration", () => {
    const { tasks, problems } = readCodeTaskFile(file("humaneval-js-ts/humaneval-x-js.jsonl.gz"));
    expect(problems).toEqual([]);
    expect(tasks).toHaveLength(164);
    const byId = new Map(tasks.map((task) => [task.id, task]));
    expect(byId.get("JavaScript/0")).toMatchObject({ entryPoint: "hasCloseElements", language: "javascript", sourceFormat: "humaneval-x" });
    expect(byId.get("JavaScript/10")!.entryPoint).toBe("makePalindrome");
    expect(byId.get("JavaScript/38")!.entryPoint).toBe("decodeCyclic");
  });

  it("loads Reflexion's MultiPL-E-format Python MBPP benchmark", () => {
    const { tasks } = readCodeTaskFile(file("reflexion/noahshinn-reflexion/programming_runs/benchmarks/mbpp-py.jsonl"));
    expect(tasks).toHaveLength(397);
    expect(tasks[0]).toMatchObject({ id: "mbpp_234_volume_cube", language: "python", entryPoint: "volume_cube" });
  });
});

describe("code task loaders on fixtures", () => {
  it("reads the original MBPP layout", () => {
    const { tasks, problems } = loadCodeTasks(MBPP_FIXTURE.map((record) => JSON.stringify(record)).join("\n"));
    expect(problems).toEqual([]);
    expect(tasks.map((task) => [task.id, task.entryPoint])).toEqual([["mbpp/11", "remove_Occ"], ["mbpp/17", "square_perimeter"], ["mbpp/900", "scaled"]]);
    expect(tasks[0]!.hiddenTests).toContain('assert remove_Occ("PHP","P") == "H"');
    expect(tasks[0]!.hiddenTests).not.toContain("hellolloll");
    expect(tasks[0]!.setup).toBeNull();
    expect(tasks[2]!.setup).toBe("import math\nFACTOR = 3");
  });

  it("reads the sanitized MBPP layout as a JSON array", () => {
    const sanitized = [{ task_id: 2, prompt: "Write a function to find the shared elements.", code: "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n", test_imports: [], test_list: ["assert set(similar_elements((3, 4), (4, 5))) == set((4,))"] }];
    const { tasks, problems } = loadCodeTasks(JSON.stringify(sanitized));
    expect(problems).toEqual([]);
    // The text never names the function: the prompt is the reference's signature with the text as docstring.
    expect(tasks[0]).toMatchObject({ id: "mbpp/2", entryPoint: "similar_elements", prompt: 'def similar_elements(a, b):\n    """Write a function to find the shared elements.\n    """\n' });
  });

  it("MBPP without a one-line signature in its code: the prompt names the function", () => {
    const record = { task_id: 7, text: "Add one.", code: "add_one = lambda x: x + 1", test_list: ["assert add_one(1) == 2"] };
    const { tasks } = loadCodeTasks(JSON.stringify(record));
    expect(tasks[0]!.prompt).toBe("Add one.\nWrite it as a Python function named `add_one`.\n");
  });

  it("reports broken lines by number and loads the rest", () => {
    const good = (n: number) => JSON.stringify({ task_id: `HumanEval/${n}`, prompt: "def f():\n", canonical_solution: "    return 1\n", test: "def check(c):\n    assert c() == 1\n", entry_point: "f" });
    const content = [good(1), '{"task_id": "HumanEval/2", "prompt": ', good(3), JSON.stringify({ task_id: "HumanEval/4", prompt: "x" }), "[1, 2]", good(1), JSON.stringify({ whatever: 1 })].join("\n");
    const { tasks, problems } = loadCodeTasks(content);
    expect(tasks.map((task) => task.id)).toEqual(["HumanEval/1", "HumanEval/3"]);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/^line 2: invalid JSON/);
    expect(problems[1]).toMatch(/^line 4 \(HumanEval\/4\): unknown record layout/);
    expect(problems[2]).toMatch(/^line 5: expected a JSON object/);
    expect(problems[3]).toMatch(/^line 6 \(HumanEval\/1\): duplicate task id/);
    expect(problems[4]).toMatch(/^line 7: unknown record layout/);
  });

  it("names the missing field of a HumanEval-like record without canonical_solution", () => {
    const { problems } = loadCodeTasks(JSON.stringify({ task_id: "HumanEval/9", prompt: "def f():\n", test: "def check(c): pass", entry_point: "f" }));
    expect(problems[0]).toMatch(/^line 1 \(HumanEval\/9\): .*canonical_solution/);
  });

  it("names the missing field when the format is forced", () => {
    const { problems } = loadCodeTasks(JSON.stringify({ task_id: "HumanEval/9", prompt: "p" }), { format: "humaneval" });
    expect(problems[0]).toMatch(/^line 1 \(HumanEval\/9\): .*canonical_solution/);
  });

  it("gunzips buffers and filters by language", () => {
    const content = [JSON.stringify({ name: "a", language: "js", prompt: "function a() {\n", tests: "let candidate = a;" }), JSON.stringify({ name: "b", language: "ts", prompt: "function b(): number {\n", tests: "let candidate = b;" })].join("\n");
    const { tasks } = loadCodeTasks(gzipSync(Buffer.from(content)), { language: "typescript" });
    expect(tasks.map((task) => [task.id, task.language, task.entryPoint])).toEqual([["b", "typescript", "b"]]);
  });
});
