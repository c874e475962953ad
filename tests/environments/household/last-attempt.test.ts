import { supportedStrategiesOf } from "@/lib/domain/strategies";
import { describe, expect, it } from "vitest";
import { householdDemoScriptBook, householdEnvironment } from "@/lib/environments/household";
import { builtinHouseholdDemoScripts } from "@/lib/environments/household/builtin-demo-scripts";
import { builtinHouseholdTasks } from "@/lib/environments/household/builtin-tasks";
import {
  END_PREVIOUS_TRIAL_MARKER,
  LAST_ATTEMPT_HEADER,
  MEMORY_HEADER,
  openingText,
  renderLastAttempt,
  renderMemory,
  renderTrajectory,
  TRUNCATED_OBSERVATION,
} from "@/lib/environments/household/prompts";
import { actorPrompt, memoryItem } from "./simulate-trial";

/** The household family under the last-attempt strategies (docs/decisions/0008-strategies.md). */

const task = builtinHouseholdTasks[0]!;
const step = (n: number, actionText: string, observation: string) => ({ step: n, thought: "", actionText, observation });
const history = [step(1, "go to desk 1", "On the desk 1, you see a desklamp 1."), step(2, "use desklamp 1", "Nothing happens.")];

describe("household strategies", () => {
  it("supports the four ReAct strategies, not the chain-of-thought ones", () => {
    // The four ReAct methods shipped today run; the CoT Actors (listed by QA only) do not.
    expect(supportedStrategiesOf(householdEnvironment)).toEqual(expect.arrayContaining(["none", "reflexion", "last-attempt", "last-attempt-and-reflexion"]));
    expect(supportedStrategiesOf(householdEnvironment)).not.toEqual(expect.arrayContaining(["cot"]));
    expect(householdEnvironment.templatesFor).toBeUndefined();
  });
});

describe("renderLastAttempt", () => {
  it("renders the header, the opening, the history and the end marker, then a blank line", () => {
    expect(renderLastAttempt(task, history)).toBe(`${LAST_ATTEMPT_HEADER}\n${openingText(task)}${renderTrajectory(history)}\n${END_PREVIOUS_TRIAL_MARKER}\n\n`);
    expect(householdEnvironment.renderLastAttempt).toBe(renderLastAttempt);
    expect(LAST_ATTEMPT_HEADER).not.toContain(MEMORY_HEADER);
  });

  it("truncates the longest observation of an over-long history", () => {
    const long = [step(1, "look", "a".repeat(5000)), step(2, "inventory", "b".repeat(3000))];
    const block = renderLastAttempt(task, long);
    expect(block).toContain(`> look\n${TRUNCATED_OBSERVATION}\n> inventory\n${"b".repeat(3000)}`);
  });

  it("goes before the reflections in {memory}; the demo model learns only from the reflections", () => {
    const script = builtinHouseholdDemoScripts[task.id]!;
    const previous = renderLastAttempt(task, history);
    const onlyPrevious = actorPrompt(task, [], [], 1).replace("Here is the task:", `${previous}Here is the task:`);
    expect(onlyPrevious).toContain(`${END_PREVIOUS_TRIAL_MARKER}\n\nHere is the task:\n${openingText(task)}\n>`);
    expect(householdDemoScriptBook.respond(onlyPrevious)).toBe(` ${script.naive[0]}`);
    const withReflection = actorPrompt(task, [memoryItem(script.reflection)], [], 1).replace(MEMORY_HEADER, `${previous}${MEMORY_HEADER}`);
    expect(withReflection).toContain(`${END_PREVIOUS_TRIAL_MARKER}\n\n${renderMemory([memoryItem(script.reflection)])}Here is the task:`);
    expect(householdDemoScriptBook.respond(withReflection)).toBe(` ${script.informed[0]}`);
  });
});
