import { describe, expect, it } from "vitest";
import type { MemoryItem } from "@/lib/domain/events";
import { builtinHouseholdDemoScripts } from "@/lib/environments/household/builtin-demo-scripts";
import { builtinHouseholdTasks } from "@/lib/environments/household/builtin-tasks";
import { parseAction } from "@/lib/environments/household/commands";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { generateHouseholdTask } from "@/lib/environments/household/generator";
import type { HouseholdTask } from "@/lib/environments/household/task";
import { GENERIC_DEMO_REFLECTION } from "@/lib/domain/reflector-wording";
import { actorPrompt, memoryItem, reflectorPrompt, runTrial, type SimulatedTrial } from "./simulate-trial";

const respond = (prompt: string) => householdDemoScriptBook.respond(prompt);
const cases = builtinHouseholdTasks.map((task) => [task.id, task] as const);
const mugTask = builtinHouseholdTasks[0]!;

function scriptOf(task: HouseholdTask) {
  const script = builtinHouseholdDemoScripts[task.id];
  if (script === undefined) throw new Error(`no demo script for ${task.id}`);
  return script;
}

/** Runs the Reflexion loop (trials until success, reflecting after each failure). */
function runReflexion(task: HouseholdTask, maxTrials: number, edit: (reflection: string) => string = (text) => text): SimulatedTrial[] {
  const memory: MemoryItem[] = [];
  const trials: SimulatedTrial[] = [];
  for (let trial = 1; trial <= maxTrials; trial += 1) {
    const result = runTrial(task, memory.slice(-3), respond);
    trials.push(result);
    if (result.verdict.verdict === "pass") break;
    const reflection = respond(reflectorPrompt(task, result.steps, result.verdict.feedback));
    if (reflection === null) throw new Error("no reflection");
    memory.push(memoryItem(edit(reflection), trial));
  }
  return trials;
}

function withoutKeywords(text: string, keywords: readonly string[]): string {
  return keywords.reduce((current, keyword) => current.replace(new RegExp(keyword.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "it"), text);
}

describe("householdDemoScriptBook script data", () => {
  it("has exactly one script per built-in task, and the built-in openings are unique", () => {
    expect(Object.keys(builtinHouseholdDemoScripts).sort()).toEqual(builtinHouseholdTasks.map((task) => task.id).sort());
    expect(new Set(builtinHouseholdTasks.map((task) => task.description)).size).toBe(builtinHouseholdTasks.length);
  });

  it.each(cases)("%s: every scripted command parses and the reflection has every lesson keyword", (_, task) => {
    const script = scriptOf(task);
    for (const command of [...script.naive, ...script.informed]) expect(parseAction(command).ok).toBe(true);
    for (const keyword of script.lessonKeywords) expect(script.reflection.toLowerCase()).toContain(keyword.toLowerCase());
  });
});

describe("the demo Actor and Reflector on the built-in tasks", () => {
  it.each(cases)("%s: without memory the naive path fails every trial, stopped by the repetition heuristic (strategy none)", (_, task) => {
    const script = scriptOf(task);
    for (let trial = 1; trial <= 3; trial += 1) {
      const result = runTrial(task, [], respond);
      expect(result.verdict.verdict).toBe("fail");
      expect(result.halted).toBe(true);
      expect(result.haltReason).toMatch(/3 times in a row\.$/);
      expect(result.verdict.feedback).toContain("3 times in a row");
      result.steps.forEach((step, index) => {
        expect(step.actionText).toBe(script.naive[Math.min(index, script.naive.length - 1)]);
      });
    }
  });

  it.each(cases)("%s: a reflector that asks only for a general lesson gets the vague reflection, which does not help", (_, task) => {
    const [first] = runReflexion(task, 5) as [SimulatedTrial];
    const prompt = reflectorPrompt(task, first.steps, first.verdict.feedback);
    const general = prompt.replace(/^[\s\S]*?(?=Here are two examples)/, "Your attempt failed. Write one general lesson about household tasks. ");
    expect(general).not.toBe(prompt);
    expect(respond(general)).toBe(GENERIC_DEMO_REFLECTION);
    expect(respond(actorPrompt(task, [memoryItem(GENERIC_DEMO_REFLECTION)], [], 1))).toBe(` ${scriptOf(task).naive[0]}`);
  });

  it.each(cases)("%s: Reflexion fails trial 1, reflects the scripted lesson, and succeeds on trial 2", (_, task) => {
    const script = scriptOf(task);
    const trials = runReflexion(task, 5);
    expect(trials.map((trial) => trial.verdict.verdict)).toEqual(["fail", "pass"]);
    const [first, second] = trials as [SimulatedTrial, SimulatedTrial];
    expect(respond(reflectorPrompt(task, first.steps, first.verdict.feedback))).toBe(script.reflection);
    expect(second.steps.map((step) => step.actionText)).toEqual(script.informed);
    expect(second.steps.some((step) => step.observation === "Nothing happens.")).toBe(false);
    expect(second.halted).toBe(false);
    // Trial 1 is the same prompt as under strategy none.
    expect(first.prompts[0]).toBe(actorPrompt(task, [], [], 1));
  });

  it.each(cases)("%s: a reflection stripped of the lesson keywords does not help", (_, task) => {
    const script = scriptOf(task);
    const trials = runReflexion(task, 3, (text) => withoutKeywords(text, script.lessonKeywords));
    expect(trials.map((trial) => trial.verdict.verdict)).toEqual(["fail", "fail", "fail"]);
  });
});

describe("the paper's teaching example: examine the mug with the desklamp", () => {
  it("trial 1 takes the mug and wanders off, looping on a lamp that is not there", () => {
    const trial = runTrial(mugTask, [], respond);
    const actions = trial.steps.map((step) => step.actionText);
    expect(actions.indexOf("take mug 1 from shelf 2")).toBeGreaterThan(actions.indexOf("go to desk 1"));
    expect(actions.slice(-4)).toEqual(["go to sidetable 1", "use desklamp 1", "use desklamp 1", "use desklamp 1"]);
    expect(trial.steps.slice(-3).map((step) => step.observation)).toEqual(Array(3).fill("Nothing happens."));
    expect(trial.lastState).toEqual({ location: "sidetable 1", inventory: ["mug 1"] });
  });

  it("the reflection says to find the desklamp first; trial 2 goes to the lamp, fetches the mug and succeeds", () => {
    const [first, second] = runReflexion(mugTask, 5) as [SimulatedTrial, SimulatedTrial];
    const reflection = respond(reflectorPrompt(mugTask, first.steps, first.verdict.feedback));
    expect(reflection).toContain("I should find the desklamp first");
    expect(second.prompts[0]).toContain(`Your memory for the task below:\nTrial 1:\n${reflection}\n\nHere is the task:`);
    expect(second.steps.map((step) => step.observation).at(-1)).toBe("You turn on the desklamp 1.");
    expect(second.verdict).toMatchObject({ verdict: "pass", evaluatorKind: "environment-success" });
    expect(second.lastState).toEqual({ location: "desk 1", inventory: ["mug 1"] });
  });

  it("under none (no memory) it never succeeds", () => {
    for (let trial = 1; trial <= 10; trial += 1) expect(runTrial(mugTask, [], respond).verdict.verdict).toBe("fail");
  });
});

describe("respond", () => {
  it("answers null for tasks it has no script for, and for prompts in no known shape", () => {
    const generated = generateHouseholdTask({ taskType: "look_at_obj_in_light", seed: 1 });
    expect(respond(actorPrompt(generated, [], [], 1))).toBeNull();
    expect(respond("Hello")).toBeNull();
    expect(respond(`${actorPrompt(mugTask, [], [], 1)} go to`)).toBeNull();
  });

  it("a same task sentence in another room is not the built-in task", () => {
    const other = { ...mugTask, scene: { ...mugTask.scene, receptacles: mugTask.scene.receptacles.slice(0, -1) } };
    expect(respond(actorPrompt(other, [], [], 1))).toBeNull();
  });

  it("answers each Actor step with one command line after the prompt sign", () => {
    expect(respond(actorPrompt(mugTask, [], [], 1))).toBe(` ${scriptOf(mugTask).naive[0]}`);
  });
});
