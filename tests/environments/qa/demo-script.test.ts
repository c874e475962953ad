import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/domain/events";
import { GENERIC_DEMO_REFLECTION } from "@/lib/domain/reflector-wording";
import { loadHotpotQa } from "@/lib/environments/qa/hotpotqa-loader";
import { builtinQaDemoScripts } from "@/lib/environments/qa/builtin-demo-scripts";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import type { QaTask } from "@/lib/environments/qa/task";
import { actorPrompt, memoryItem, reflectorPrompt, runTrial, type SimulatedTrial } from "./simulate-trial";
import { readHotpotQaSample } from "./shared-data";

const respond = (prompt: string) => qaDemoScriptBook.respond(prompt);
const cases = builtinQaTasks.map((task) => [task.id, task] as const);

function scriptOf(task: QaTask) {
  const script = builtinQaDemoScripts[task.id];
  if (script === undefined) throw new Error(`no demo script for ${task.id}`);
  return script;
}

/** Runs the Reflexion loop (trials until success, reflecting after each failure) and returns every trial. */
function runReflexion(task: QaTask, maxTrials: number, edit: (reflection: string) => string = (text) => text): SimulatedTrial[] {
  const memory: MemoryItem[] = [];
  const trials: SimulatedTrial[] = [];
  for (let trial = 1; trial <= maxTrials; trial += 1) {
    const result = runTrial(task, memory, respond);
    trials.push(result);
    if (result.verdict.verdict === "pass") break;
    const reflection = respond(reflectorPrompt(task, result.steps, result.verdict.feedback));
    if (reflection === null) throw new Error("no reflection");
    memory.push(memoryItem(edit(reflection), trial));
  }
  return trials;
}

/** Removes every lesson keyword from a text (case-insensitive), as a user editing a reflection might. */
function withoutKeywords(text: string, keywords: readonly string[]): string {
  return keywords.reduce((current, keyword) => current.replace(new RegExp(keyword.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "it"), text);
}

describe("qaDemoScriptBook script data", () => {
  it("has exactly one script per built-in task", () => {
    expect(Object.keys(builtinQaDemoScripts).sort()).toEqual(builtinQaTasks.map((task) => task.id).sort());
  });

  it.each(cases)("%s: the reflection contains every lesson keyword", (_, task) => {
    const script = scriptOf(task);
    expect(script.lessonKeywords.length).toBeGreaterThan(0);
    for (const keyword of script.lessonKeywords) expect(script.reflection.toLowerCase()).toContain(keyword.toLowerCase());
  });
});

describe("the demo Actor and Reflector on the built-in tasks", () => {
  it.each(cases)("%s: without memory the naive path fails on every trial (strategy none)", (_, task) => {
    const script = scriptOf(task);
    for (let trial = 1; trial <= 3; trial += 1) {
      const result = runTrial(task, [], respond);
      expect(result.verdict.verdict).toBe("fail");
      expect(result.halted).toBe(script.naiveOutcome === "halted");
      if (script.naiveOutcome === "halted") expect(result.steps).toHaveLength(6);
      else expect(result.answer).not.toBeNull();
      // Every step followed the naive script.
      result.steps.forEach((step, index) => {
        const scripted = script.naive[Math.min(index, script.naive.length - 1)]!;
        expect(step).toMatchObject({ step: index + 1, thought: scripted.thought, actionText: scripted.action });
      });
    }
  });

  it.each(cases)("%s: Reflexion fails trial 1, reflects the scripted lesson, and succeeds on trial 2", (_, task) => {
    const script = scriptOf(task);
    const trials = runReflexion(task, 5);
    expect(trials.map((trial) => trial.verdict.verdict)).toEqual(["fail", "pass"]);
    const [first, second] = trials as [SimulatedTrial, SimulatedTrial];
    // The reflector saw the failed trial and answered with the scripted reflection.
    expect(respond(reflectorPrompt(task, first.steps, first.verdict.feedback))).toBe(script.reflection);
    // Trial 2 followed the informed path and every Search in it found a page.
    expect(second.steps.map((step) => step.actionText)).toEqual(script.informed.map((step) => step.action));
    expect(second.answer).toBe(task.answer);
    for (const step of second.steps) expect(step.observation).not.toMatch(/^Could not find|^Invalid Action|^No Results|^The last page/);
    // Trial 1 is the same prompt as under strategy none.
    expect(first.prompts[0]).toBe(actorPrompt(task, [], [], 1));
  });

  it.each(cases)("%s: a reflection edited to drop the lesson keywords makes the naive path fail again", (_, task) => {
    const script = scriptOf(task);
    const trials = runReflexion(task, 3, (reflection) => withoutKeywords(reflection, script.lessonKeywords));
    expect(trials.map((trial) => trial.verdict.verdict)).toEqual(["fail", "fail", "fail"]);
    expect(trials[2]!.steps[0]!.actionText).toBe(script.naive[0]!.action);
  });

  it("needs ALL keywords: one missing keyword keeps the naive path", () => {
    const task = builtinQaTasks[0]!;
    const script = scriptOf(task);
    const [firstKeyword] = script.lessonKeywords as [string];
    const partial = withoutKeywords(script.reflection, [firstKeyword]);
    expect(respond(actorPrompt(task, [memoryItem(partial)], [], 1))).toBe(` ${script.naive[0]!.thought}\nAction 1: ${script.naive[0]!.action}`);
    expect(respond(actorPrompt(task, [memoryItem(script.reflection)], [], 1))).toBe(
      ` ${script.informed[0]!.thought}\nAction 1: ${script.informed[0]!.action}`,
    );
  });

  it("a hand-written memory with the keywords works too, in any case, among other items", () => {
    const task = builtinQaTasks[0]!;
    const memory = [memoryItem("Unrelated note.", 1), memoryItem("search DUNMERE and then its RIVER", null)];
    expect(runTrial(task, memory, respond).verdict.verdict).toBe("pass");
  });
});

describe("qaDemoScriptBook.respond edge cases", () => {
  const task = builtinQaTasks[1]!;
  const script = scriptOf(task);

  it("repeats the last scripted step, renumbered, past the end of the script", () => {
    const last = script.naive.at(-1)!;
    expect(respond(actorPrompt(task, [], [], 9))).toBe(` ${last.thought}\nAction 9: ${last.action}`);
  });

  it("reads the question after the LAST Question: line, not the examples'", () => {
    const prompt = actorPrompt(task, [], [], 1);
    expect(prompt.indexOf("Question:")).toBeLessThan(prompt.lastIndexOf("Question:"));
    expect(respond(prompt)).toContain("Action 1: ");
  });

  it("ignores lesson keywords that appear only in the scratchpad, not in memory", () => {
    const steps = [{ step: 1, thought: script.reflection, actionText: "Search[x]", observation: "y" }];
    expect(respond(actorPrompt(task, [], steps, 2))).toBe(` ${script.naive[1]!.thought}\nAction 2: ${script.naive[1]!.action}`);
  });

  it("returns null for questions it does not know, and for prompts it cannot place", () => {
    const hotpot = loadHotpotQa(readHotpotQaSample(), { limit: 1 }).tasks[0]!;
    expect(respond(actorPrompt(hotpot, [], [], 1))).toBeNull();
    expect(respond(reflectorPrompt(hotpot, [], "x"))).toBeNull();
    expect(respond("")).toBeNull();
    expect(respond(`Question: ${task.question}\nSomething else:`)).toBeNull();
  });

  it("answers a bare prompt in the same shape, without the default template", () => {
    expect(respond(`Question: ${task.question}\nThought 1:`)).toBe(` ${script.naive[0]!.thought}\nAction 1: ${script.naive[0]!.action}`);
    // A bare reflector prompt asks for no plan, so it gets the vague reflection (lib/domain/reflector-wording.ts).
    expect(respond(`Question: ${task.question}\nReflection:`)).toBe(GENERIC_DEMO_REFLECTION);
    expect(respond(`Write a plan.\nQuestion: ${task.question}\nReflection:`)).toBe(script.reflection);
  });
});
