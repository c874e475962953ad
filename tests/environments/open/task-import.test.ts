import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { builtinOpenTasks, loadOpenTasks, parseOpenTask } from "@/lib/environments/open";
import { environmentEntry } from "@/lib/environments/registry";

const good = {
  id: "t-1",
  prompt: "Write a haiku about rain.",
  rubric: { criteria: [{ id: "form", description: "Three lines.", weight: 1 }], passThreshold: 0.6 },
};

describe("open task schema and importer", () => {
  it("every built-in task validates, with distinct ids", () => {
    for (const task of builtinOpenTasks) expect(parseOpenTask(task)).toEqual(task);
    expect(new Set(builtinOpenTasks.map((t) => t.id)).size).toBe(builtinOpenTasks.length);
  });

  it("parseOpenTask names the wrong fields", () => {
    expect(() => parseOpenTask({ ...good, rubric: { criteria: [], passThreshold: 2 } })).toThrow(AppError);
    expect(() => parseOpenTask({ id: "x" })).toThrow(/prompt/);
  });

  it("loads a JSON array: broken records reported by number and field, the rest load, duplicates skipped", () => {
    const content = JSON.stringify([good, { ...good, id: "t-2", rubric: { criteria: [{ id: "Bad Id", description: "", weight: -1 }], passThreshold: 0.5 } }, { ...good }, { ...good, id: "t-3" }]);
    const result = loadOpenTasks(content);
    expect(result.tasks.map((t) => t.id)).toEqual(["t-1", "t-3"]);
    expect(result.problems).toHaveLength(2);
    expect(result.problems[0]).toMatch(/^record 2: .*rubric\.criteria\.0/);
    expect(result.problems[1]).toBe('record 3: duplicate task id "t-1", skipped');
  });

  it("loads JSON Lines and { tasks: [...] }, reporting a line that is not JSON", () => {
    const lines = [JSON.stringify(good), "{not json", "", JSON.stringify({ ...good, id: "t-9" })].join("\n");
    const result = loadOpenTasks(lines);
    expect(result.tasks.map((t) => t.id)).toEqual(["t-1", "t-9"]);
    expect(result.problems).toEqual([expect.stringMatching(/^line 2: not JSON/)]);
    expect(loadOpenTasks(JSON.stringify({ tasks: [good] })).tasks).toHaveLength(1);
  });

  it("refuses an empty or unreadable file with a message saying what to give", () => {
    expect(() => loadOpenTasks("  ")).toThrow(/JSON array of tasks/);
    expect(() => loadOpenTasks("hello\nworld")).toThrow(/neither JSON nor JSON Lines/);
  });

  it("is registered as 'Open tasks (LLM judge)' with the evaluator-uses-model flag", () => {
    const entry = environmentEntry("open");
    expect(entry.label).toBe("Open tasks (LLM judge)");
    expect(entry.family.evaluatorUsesModel).toBe(true);
    expect(entry.builtinTasks).toHaveLength(builtinOpenTasks.length);
    expect(entry.importTaskSet(JSON.stringify([good])).tasks).toHaveLength(1);
  });
});
