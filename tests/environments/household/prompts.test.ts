import { describe, expect, it } from "vitest";
import { householdEnvironment } from "@/lib/environments/household";
import { builtinHouseholdTasks } from "@/lib/environments/household/builtin-tasks";
import { householdActorExamples } from "@/lib/environments/household/prompt-examples";
import { selectMemoryWindow } from "@/lib/domain/memory-window";
import { MEMORY_HEADER, renderMemory, renderTrajectory, stepPrefix } from "@/lib/environments/household/prompts";
import { HOUSEHOLD_TASK_TYPES } from "@/lib/environments/household/task";
import { actorPrompt, memoryItem, reflectorPrompt } from "./simulate-trial";

const task = builtinHouseholdTasks[0]!;
const step = (n: number, actionText: string, observation: string) => ({ step: n, thought: "", actionText, observation });

describe("renderTrajectory and stepPrefix", () => {
  it("renders ALFWorld style, one command per step, and the prompt ends with >", () => {
    expect(renderTrajectory([])).toBe("");
    expect(renderTrajectory([step(1, "go to desk 1", "On the desk 1, you see nothing."), step(2, "", "Nothing happens.")])).toBe(
      "\n> go to desk 1\nOn the desk 1, you see nothing.\n> \nNothing happens.",
    );
    expect(stepPrefix(7)).toBe("\n>");
    expect(householdEnvironment.actorStopSequences).toEqual(["\n"]);
  });
});

describe("renderMemory", () => {
  it("is empty without memory, else the header and one Trial i: entry per reflection", () => {
    expect(renderMemory([])).toBe("");
    expect(renderMemory([memoryItem("  ")])).toBe("");
    expect(renderMemory([memoryItem("First\nlesson.", 1), memoryItem("Second lesson.", 2)])).toBe(
      `${MEMORY_HEADER}\nTrial 1:\nFirst lesson.\nTrial 2:\nSecond lesson.\n\n`,
    );
  });

  it("labels each reflection with the trial it came from, not its place in the window (trial 6, Ω = 3)", () => {
    const memory = [1, 2, 3, 4, 5].map((trial) => memoryItem(`Lesson of trial ${trial}.`, trial));
    const window = selectMemoryWindow(memory, 3).inContext;
    expect(renderMemory(window)).toBe(`${MEMORY_HEADER}\nTrial 3:\nLesson of trial 3.\nTrial 4:\nLesson of trial 4.\nTrial 5:\nLesson of trial 5.\n\n`);
  });

  it("labels an entry without a trial (hand-written, summary, carried over) as a note, and skips empty ones without shifting the labels", () => {
    expect(renderMemory([memoryItem("Open the drawer first.", null), memoryItem(" ", 2), memoryItem("Then look.", 3)])).toBe(
      `${MEMORY_HEADER}\nNote:\nOpen the drawer first.\nTrial 3:\nThen look.\n\n`,
    );
  });
});

describe("the default templates", () => {
  it("the Actor prompt: instruction, the two examples of the task's type, memory, the task, the history, >", () => {
    const prompt = actorPrompt(task, [memoryItem("Find the lamp first.")], [step(1, "go to desk 1", "On the desk 1, you see a desklamp 1, a laptop 1, and a pencil 2.")], 2);
    const [first, second] = householdActorExamples.look_at_obj_in_light;
    expect(prompt.indexOf(first)).toBeGreaterThan(0);
    expect(prompt.indexOf(second)).toBeGreaterThan(prompt.indexOf(first));
    expect(prompt.endsWith(
      `${MEMORY_HEADER}\nTrial 1:\nFind the lamp first.\n\nHere is the task:\n${householdEnvironment.promptVariables(task).initialObservation}\n> go to desk 1\nOn the desk 1, you see a desklamp 1, a laptop 1, and a pencil 2.\n>`,
    )).toBe(true);
    expect(prompt).not.toMatch(/\{\w+\}/);
  });

  it("uses the examples of the task's own type", () => {
    for (const builtin of builtinHouseholdTasks) {
      const examples = householdEnvironment.promptVariables(builtin).examples ?? "";
      for (const taskType of HOUSEHOLD_TASK_TYPES) {
        const included = examples.includes(householdActorExamples[taskType][0]);
        expect(included).toBe(taskType === builtin.taskType);
      }
    }
  });

  it("trial 1's prompt is the same with and without a memory slot filled (none vs reflexion)", () => {
    expect(actorPrompt(task, [], [], 1)).toBe(actorPrompt(task, [memoryItem("")], [], 1));
    expect(actorPrompt(task, [], [], 1).endsWith("Your task is to: examine the mug with the desklamp.\n>")).toBe(true);
  });

  it("the Self-Reflection prompt shows the failed trial and the feedback and ends with Reflection:", () => {
    const prompt = reflectorPrompt(task, [step(1, "use desklamp 1", "Nothing happens.")], "Task not completed.");
    expect(prompt.endsWith("Your task is to: examine the mug with the desklamp.\n> use desklamp 1\nNothing happens.\n\nEvaluator: Task not completed.\n\nReflection:")).toBe(true);
    expect(prompt).not.toMatch(/\{\w+\}/);
  });

  it("has ids and versions", () => {
    expect(householdEnvironment.defaultTemplates.actor).toMatchObject({ id: "household/react-actor", version: 1 });
    expect(householdEnvironment.defaultTemplates.reflector).toMatchObject({ id: "household/reflect", version: 1 });
  });
});
