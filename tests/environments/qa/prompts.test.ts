import { describe, expect, it } from "vitest";
import { qaEnvironment } from "@/lib/environments/qa";
import { parseAction } from "@/lib/environments/qa/action-parser";
import { builtinQaDemoScripts } from "@/lib/environments/qa/builtin-demo-scripts";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import { hasLesson } from "@/lib/environments/qa/demo-script";
import {
  ACTOR_EXAMPLES_TEXT,
  MEMORY_HEADER,
  REFLECTION_EXAMPLES_TEXT,
  renderMemory,
  renderScratchpad,
  renderTrajectory,
  stepPrefix,
} from "@/lib/environments/qa/prompts";
import { actorPrompt, memoryItem, reflectorPrompt } from "./simulate-trial";

const task = builtinQaTasks[0]!;
const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
const twoSteps = [
  { step: 1, thought: "Find the town.", actionText: "Search[The Glass Orchard]", observation: "It was staged\nin Dunmere." },
  { step: 2, thought: "", actionText: "Finish[Dunmere]", observation: "Episode finished, answer submitted: Dunmere" },
];

describe("default templates", () => {
  it("have the documented ids, versions and placeholders", () => {
    const { actor, reflector } = qaEnvironment.defaultTemplates;
    expect([actor.id, actor.version, reflector.id, reflector.version]).toEqual(["qa/react-actor", 1, "qa/reflect", 1]);
    expect(placeholders(actor.text)).toEqual(new Set(["examples", "memory", "question", "scratchpad"]));
    expect(placeholders(reflector.text)).toEqual(new Set(["reflectionExamples", "question", "scratchpad", "feedback"]));
    expect(Object.keys(qaEnvironment.promptVariables(task)).sort()).toEqual(["examples", "question", "reflectionExamples"]);
  });

  it("the Actor prompt ends with `Question: …\\nThought 1:` and has no leftover placeholder", () => {
    const prompt = actorPrompt(task, [], [], 1);
    expect(prompt.endsWith(`(END OF EXAMPLES)\n\nQuestion: ${task.question}\nThought 1:`)).toBe(true);
    expect(prompt).not.toMatch(/\{\w+\}/);
    expect(prompt).toContain("Here are some examples:\nQuestion: ");
  });

  it("trial 1 is the same prompt with no memory under either strategy, and memory sits between the examples and the question", () => {
    const withMemory = actorPrompt(task, [memoryItem("Search the town first."), memoryItem("Then its river.", 2)], [], 1);
    expect(withMemory).toContain(
      `(END OF EXAMPLES)\n\n${MEMORY_HEADER}\nReflections:\n- Search the town first.\n- Then its river.\n\nQuestion: ${task.question}\nThought 1:`,
    );
    expect(withMemory.replace(renderMemory([memoryItem("Search the town first."), memoryItem("Then its river.", 2)]), "")).toBe(
      actorPrompt(task, [], [], 1),
    );
  });

  it("the Actor prompt for a later step continues the scratchpad", () => {
    expect(actorPrompt(task, [], twoSteps.slice(0, 1), 2).endsWith(
      `Question: ${task.question}\nThought 1: Find the town.\nAction 1: Search[The Glass Orchard]\nObservation 1: It was staged in Dunmere.\nThought 2:`,
    )).toBe(true);
  });

  it("the Reflector prompt shows the failed trial and the feedback and ends with `Reflection:`", () => {
    const prompt = reflectorPrompt(task, twoSteps, 'Answer "Dunmere" does not match the gold answer by exact match.');
    expect(prompt.endsWith(
      `Previous trial:\nQuestion: ${task.question}${renderTrajectory(twoSteps)}\n\nEvaluator: Answer "Dunmere" does not match the gold answer by exact match.\n\nReflection:`,
    )).toBe(true);
    expect(prompt).not.toMatch(/\{\w+\}/);
    expect(prompt).toContain(REFLECTION_EXAMPLES_TEXT);
  });

  it("stops the Actor before it writes an observation", () => {
    expect(qaEnvironment.actorStopSequences).toEqual(["\nObservation"]);
  });
});

describe("renderTrajectory, stepPrefix, renderScratchpad", () => {
  it("renders numbered Thought/Action/Observation lines with inner newlines flattened", () => {
    expect(renderTrajectory(twoSteps)).toBe(
      "\nThought 1: Find the town.\nAction 1: Search[The Glass Orchard]\nObservation 1: It was staged in Dunmere." +
        "\nThought 2:\nAction 2: Finish[Dunmere]\nObservation 2: Episode finished, answer submitted: Dunmere",
    );
    expect(renderTrajectory([])).toBe("");
  });

  it("stepPrefix carries the newline, so the engine's trajectory + stepPrefix ends with `Thought n:`", () => {
    expect(stepPrefix(3)).toBe("\nThought 3:");
    expect(renderScratchpad([], 1)).toBe("\nThought 1:");
    expect(renderScratchpad(twoSteps, 3)).toBe(`${renderTrajectory(twoSteps)}\nThought 3:`);
  });
});

describe("renderMemory", () => {
  it("is empty for no memory or only blank items", () => {
    expect(renderMemory([])).toBe("");
    expect(renderMemory([memoryItem("  \n ")])).toBe("");
  });

  it("renders one bullet per item on one line each", () => {
    expect(renderMemory([memoryItem("First\nlesson."), memoryItem("Second.", null)])).toBe(
      `${MEMORY_HEADER}\nReflections:\n- First lesson.\n- Second.\n\n`,
    );
  });

  it("its header and the prompt text before the question never carry a built-in lesson by themselves", () => {
    for (const [id, script] of Object.entries(builtinQaDemoScripts)) {
      const taskOfScript = builtinQaTasks.find((candidate) => candidate.id === id)!;
      const prompt = actorPrompt(taskOfScript, [memoryItem("A neutral note.")], [], 1);
      const beforeQuestion = prompt.slice(0, prompt.lastIndexOf("\nQuestion:"));
      expect(hasLesson(beforeQuestion, script.lessonKeywords), id).toBe(false);
    }
  });
});

describe("few-shot examples", () => {
  const exampleBlocks = ACTOR_EXAMPLES_TEXT.split("\n\n");

  it.each(exampleBlocks.map((block, index) => [index + 1, block] as const))(
    "Actor example %i has exactly the scratchpad's grammar and valid actions",
    (_, block) => {
      const [questionLine, ...lines] = block.split("\n");
      expect(questionLine).toMatch(/^Question: \S.*\?$/);
      expect(lines.length % 3).toBe(0);
      lines.forEach((line, index) => {
        const step = Math.floor(index / 3) + 1;
        const label = ["Thought", "Action", "Observation"][index % 3];
        expect(line).toMatch(new RegExp(`^${label} ${step}: \\S`));
        if (label === "Action") expect(parseAction(line.slice(`Action ${step}: `.length)).ok).toBe(true);
      });
      expect(lines.at(-2)).toMatch(/^Action \d+: Finish\[.+\]$/);
    },
  );

  it("uses all three actions across the examples", () => {
    for (const verb of ["Search[", "Lookup[", "Finish["]) expect(ACTOR_EXAMPLES_TEXT).toContain(`: ${verb}`);
    expect(ACTOR_EXAMPLES_TEXT).toContain("Could not find [");
  });

  it("is about facts of its own, not the built-in tasks'", () => {
    const examples = `${ACTOR_EXAMPLES_TEXT}\n${REFLECTION_EXAMPLES_TEXT}`;
    for (const builtin of builtinQaTasks) {
      for (const paragraph of builtin.paragraphs) expect(examples, paragraph.title).not.toContain(paragraph.title);
      expect(examples).not.toContain(builtin.answer);
    }
  });

  it("has two reflection examples: a wrong answer and a halted trial", () => {
    const blocks = REFLECTION_EXAMPLES_TEXT.split("\n\nPrevious trial:");
    expect(blocks).toHaveLength(2);
    expect(REFLECTION_EXAMPLES_TEXT).toContain("\n\nEvaluator: Answer \"Greyfield\" does not match the gold answer by exact match.\n\nReflection: ");
    expect(REFLECTION_EXAMPLES_TEXT).toContain("\n\nEvaluator: No answer: the trial ended without Finish[...]\n\nReflection: ");
  });
});
