import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIN_LESSON_WORDS, reflectionProblem } from "@/lib/engine/completion-checks";
import { cleanReflection } from "@/lib/engine/prompts";

/**
 * Every reflection the paper's runs wrote (read in place from shared/data/reflexion, never copied):
 * ALFWorld and WebShop `env_results_trial_*.json` memories, the programming runs' `reflections[]`
 * (HumanEval, MBPP, Rust) and the HotpotQA ReAct + Reflexion log as parsed in derived/.
 */
const REFLEXION_DATA = path.resolve(__dirname, "../../../shared/data/reflexion");

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? files(full) : [full];
    });
}

function paperReflections(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  for (const file of files(REFLEXION_DATA)) {
    const name = path.basename(file);
    if (/^env_results_trial_\d+\.json$/.test(name)) {
      for (const env of JSON.parse(readFileSync(file, "utf8")) as { memory?: string[] }[]) for (const text of env.memory ?? []) found.push({ file, text });
    } else if (name.endsWith(".jsonl")) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        const row = JSON.parse(line) as { reflections?: unknown };
        if (Array.isArray(row.reflections)) for (const text of row.reflections) if (typeof text === "string") found.push({ file, text });
      }
    }
  }
  return found;
}

describe("a Self-Reflection that is not a lesson", () => {
  it("flags a bare number, punctuation, and fewer than the minimum of words", () => {
    const none = { answer: null, memory: [] };
    expect(reflectionProblem("925", none)).toBe(`the reflection is not a lesson: it has no words, only numbers or symbols; a lesson names what went wrong and what to do next`);
    expect(reflectionProblem("42 - 7 = 35!", none)).toMatch(/no words, only numbers or symbols/);
    expect(reflectionProblem("Try again.", none)).toBe(`the reflection is not a lesson: 2 words, fewer than ${MIN_LESSON_WORDS}; a lesson names what went wrong and what to do next`);
    expect(reflectionProblem("Search first.", none)).toMatch(/not a lesson: 2 words/);
    expect(MIN_LESSON_WORDS).toBe(4);
  });

  it("accepts a short real plan, numbers inside words, and text in a script written without spaces", () => {
    const none = { answer: null, memory: [] };
    expect(reflectionProblem("Find the lamp first.", none)).toBeNull();
    expect(reflectionProblem("Search 1920 then Lookup[born].", none)).toBeNull();
    expect(reflectionProblem("我应该先搜索城镇，然后回答它的河流。", none)).toBeNull();
    expect(reflectionProblem("Zuerst die Stadt suchen, dann den Fluss nennen.", none)).toBeNull();
  });

  it("flags none of the paper's real reflections (ALFWorld, WebShop, HotpotQA, HumanEval, MBPP, Rust)", () => {
    const reflections = paperReflections();
    expect(reflections.length).toBeGreaterThan(5000);
    expect(new Set(reflections.map((reflection) => path.relative(REFLEXION_DATA, reflection.file).split(path.sep)[1])).size).toBeGreaterThanOrEqual(3);
    const flagged = reflections.filter((reflection) => reflectionProblem(cleanReflection(reflection.text), { answer: null, memory: [] }) !== null);
    expect(flagged.map((reflection) => `${path.relative(REFLEXION_DATA, reflection.file)}: ${reflection.text.slice(0, 80)}`)).toEqual([]);
  });
});
