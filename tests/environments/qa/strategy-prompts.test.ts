import { supportedStrategiesOf } from "@/lib/domain/strategies";
import { describe, expect, it } from "vitest";
import type { Strategy } from "@/lib/domain/config";
import type { TrajectoryStep } from "@/lib/domain/environment";
import { LAST_ATTEMPT_CHAR_BUDGET, truncateLongestObservations } from "@/lib/domain/trajectory-budget";
import { qaEnvironment } from "@/lib/environments/qa";
import { parseAction } from "@/lib/environments/qa/action-parser";
import { builtinQaDemoScripts } from "@/lib/environments/qa/builtin-demo-scripts";
import { builtinQaTasks } from "@/lib/environments/qa/builtin-tasks";
import { hasLesson, isCotPrompt, memoryBlockOf, qaDemoScriptBook, findLastQuestion } from "@/lib/environments/qa/demo-script";
import { INVALID_ACTION_OBSERVATION, NO_TOOLS_INVALID_ACTION_OBSERVATION, startQaEpisode } from "@/lib/environments/qa/environment";
import { exactMatch } from "@/lib/environments/qa/exact-match";
import {
  ACTOR_EXAMPLES_TEXT,
  CONTEXT_LABEL,
  COT_CONTEXT_EXAMPLES_TEXT,
  COT_CONTEXT_REFLECTION_EXAMPLES_TEXT,
  COT_EXAMPLES_TEXT,
  COT_NO_TOOLS_PHRASE,
  COT_REFLECTION_EXAMPLES_TEXT,
  END_OF_EXAMPLES_MARKER,
  END_PREVIOUS_TRIAL_MARKER,
  goldContext,
  LAST_ATTEMPT_HEADER,
  MEMORY_HEADER,
  qaTemplatesFor,
  REFLECTION_EXAMPLES_TEXT,
  reflectionsHeaderAfterLastAttempt,
  renderLastAttempt,
  renderMemory,
  renderTrajectory,
  TRUNCATED_OBSERVATION,
} from "@/lib/environments/qa/prompts";
import { joinSentences, type QaTask } from "@/lib/environments/qa/task";
import { fillTemplate, memoryItem } from "./simulate-trial";

/**
 * The QA family's pieces for the memory strategies (docs/decisions/0008-strategies.md):
 * the chain-of-thought templates and examples, the gold context, the previous
 * trial's block, the tool-less episode and the demo script book's CoT script.
 */

const task = builtinQaTasks[0]!;
const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
const ALL: Strategy[] = ["none", "reflexion", "last-attempt", "last-attempt-and-reflexion", "cot", "cot-gold-context"];

/** The Actor prompt of a strategy's template for step 1 (memory as the engine would fill it). */
function actorPrompt(strategy: Strategy, qaTask: QaTask, memory = "", scratchpad = "\nThought 1:"): string {
  return fillTemplate(qaTemplatesFor(strategy).actor.text, { ...qaEnvironment.promptVariables(qaTask, strategy), memory, scratchpad });
}

function reflectorPrompt(strategy: Strategy, qaTask: QaTask, steps: TrajectoryStep[], feedback: string): string {
  return fillTemplate(qaTemplatesFor(strategy).reflector.text, {
    ...qaEnvironment.promptVariables(qaTask, strategy),
    scratchpad: renderTrajectory(steps),
    feedback,
  });
}

describe("templates per strategy", () => {
  it("the ReAct strategies share the default templates; the cot variants have their own", () => {
    for (const strategy of ["none", "reflexion", "last-attempt", "last-attempt-and-reflexion"] as const) {
      expect(qaTemplatesFor(strategy)).toEqual(qaEnvironment.defaultTemplates);
    }
    expect(qaTemplatesFor("cot")).toMatchObject({ actor: { id: "qa/cot-actor", version: 1 }, reflector: { id: "qa/cot-reflect", version: 1 } });
    expect(qaTemplatesFor("cot-gold-context")).toMatchObject({
      actor: { id: "qa/cot-context-actor", version: 1 },
      reflector: { id: "qa/cot-context-reflect", version: 1 },
    });
    expect(qaEnvironment.templatesFor?.("cot")).toEqual(qaTemplatesFor("cot"));
    // Every method shipped today runs on QA (a method added later may too).
    expect(supportedStrategiesOf(qaEnvironment).filter((strategy) => ALL.includes(strategy))).toEqual(ALL);
  });

  it("have the documented placeholders, all of which the strategy's variables fill", () => {
    expect(placeholders(qaTemplatesFor("cot").actor.text)).toEqual(new Set(["examples", "memory", "question", "scratchpad"]));
    expect(placeholders(qaTemplatesFor("cot-gold-context").actor.text)).toEqual(new Set(["examples", "memory", "context", "question", "scratchpad"]));
    expect(placeholders(qaTemplatesFor("cot").reflector.text)).toEqual(new Set(["reflectionExamples", "question", "scratchpad", "feedback"]));
    expect(placeholders(qaTemplatesFor("cot-gold-context").reflector.text)).toEqual(
      new Set(["reflectionExamples", "context", "question", "scratchpad", "feedback"]),
    );
    for (const strategy of ALL) {
      expect(actorPrompt(strategy, task), strategy).not.toMatch(/\{\w+\}/);
      expect(reflectorPrompt(strategy, task, [], "x"), strategy).not.toMatch(/\{\w+\}/);
    }
  });

  it("the CoT instructions offer no tools and the CoT reflections explain exact match and phrasing discrepancies", () => {
    for (const strategy of ["cot", "cot-gold-context"] as const) {
      const { actor, reflector } = qaTemplatesFor(strategy);
      for (const text of [actor.text, reflector.text]) {
        expect(text).toContain(COT_NO_TOOLS_PHRASE);
        expect(text).not.toMatch(/Search\[|Lookup\[/);
      }
      expect(actor.text).toContain("Finish[answer]");
      expect(reflector.text).toContain("phrasing discrepancy");
      expect(reflector.text).toContain("exact match");
      expect(reflector.text.endsWith("Reflection:")).toBe(true);
    }
    for (const { actor, reflector } of [qaEnvironment.defaultTemplates]) {
      expect(actor.text).not.toContain(COT_NO_TOOLS_PHRASE);
      expect(reflector.text).not.toContain(COT_NO_TOOLS_PHRASE);
    }
  });

  it("the cot prompt ends with the question and `Thought 1:`; cot-gold-context puts the context right before the question", () => {
    expect(actorPrompt("cot", task).endsWith(`${END_OF_EXAMPLES_MARKER}\n\nQuestion: ${task.question}\nThought 1:`)).toBe(true);
    expect(actorPrompt("cot-gold-context", task).endsWith(`${END_OF_EXAMPLES_MARKER}\n\n${CONTEXT_LABEL}\n${goldContext(task)}\nQuestion: ${task.question}\nThought 1:`)).toBe(true);
    const withMemory = actorPrompt("cot-gold-context", task, renderMemory([memoryItem("Name the river.")]));
    expect(withMemory).toContain(`${MEMORY_HEADER}\nReflections:\n- Name the river.\n\n${CONTEXT_LABEL}\n`);
  });
});

describe("promptVariables per strategy", () => {
  it("gives the ReAct examples without a strategy or under a ReAct strategy", () => {
    const plain = qaEnvironment.promptVariables(task);
    for (const strategy of ["none", "reflexion", "last-attempt", "last-attempt-and-reflexion"] as const) {
      expect(qaEnvironment.promptVariables(task, strategy)).toEqual(plain);
    }
    expect(plain).toEqual({ question: task.question, examples: ACTOR_EXAMPLES_TEXT, reflectionExamples: REFLECTION_EXAMPLES_TEXT });
  });

  it("gives the CoT examples under cot, and the with-context ones plus the context under cot-gold-context", () => {
    expect(qaEnvironment.promptVariables(task, "cot")).toEqual({
      question: task.question,
      examples: COT_EXAMPLES_TEXT,
      reflectionExamples: COT_REFLECTION_EXAMPLES_TEXT,
    });
    expect(qaEnvironment.promptVariables(task, "cot-gold-context")).toEqual({
      question: task.question,
      examples: COT_CONTEXT_EXAMPLES_TEXT,
      reflectionExamples: COT_CONTEXT_REFLECTION_EXAMPLES_TEXT,
      context: goldContext(task),
    });
  });
});

describe("goldContext", () => {
  it("is the supporting paragraphs in supportingTitles order, one per line as `Title: text`, no distractor", () => {
    const byTitle = new Map(task.paragraphs.map((paragraph) => [paragraph.title, joinSentences(paragraph.sentences)]));
    expect(goldContext(task)).toBe(task.supportingTitles.map((title) => `${title}: ${byTitle.get(title)}`).join("\n"));
    for (const paragraph of task.paragraphs.filter((p) => !task.supportingTitles.includes(p.title))) {
      expect(goldContext(task)).not.toContain(joinSentences(paragraph.sentences));
    }
  });

  it("lists a paragraph once even when its title is repeated (the reference duplicates it)", () => {
    const repeated = { ...task, supportingTitles: [task.supportingTitles[0]!, task.supportingTitles[0]!, task.supportingTitles[1]!] };
    expect(goldContext(repeated)).toBe(goldContext(task));
  });

  it("falls back to every paragraph for a task without supporting titles", () => {
    expect(goldContext({ ...task, supportingTitles: [] }).split("\n")).toHaveLength(task.paragraphs.length);
  });
});

describe("chain-of-thought few-shot examples", () => {
  const blocks = (text: string) => text.split("\n\n");

  it.each([
    ["closed-book", COT_EXAMPLES_TEXT, false],
    ["with context", COT_CONTEXT_EXAMPLES_TEXT, true],
  ] as const)("%s: three one-step examples, a Thought then a valid Finish", (_, text, withContext) => {
    expect(blocks(text)).toHaveLength(3);
    for (const block of blocks(text)) {
      const lines = block.split("\n");
      const start = withContext ? lines.indexOf(CONTEXT_LABEL) : -1;
      if (withContext) expect(start).toBe(0);
      else expect(block).not.toContain(CONTEXT_LABEL);
      const [question, thought, action, ...rest] = lines.slice(withContext ? lines.findIndex((line) => line.startsWith("Question: ")) : 0);
      expect(question).toMatch(/^Question: \S.*\?$/);
      expect(thought).toMatch(/^Thought 1: \S/);
      expect(action).toMatch(/^Action 1: Finish\[.+\]$/);
      expect(parseAction(action!.slice("Action 1: ".length))).toMatchObject({ ok: true, action: { type: "Finish" } });
      expect(rest).toEqual([]);
    }
  });

  it("two reflection examples each, one of them a phrasing discrepancy, shaped like the live reflector prompt", () => {
    for (const text of [COT_REFLECTION_EXAMPLES_TEXT, COT_CONTEXT_REFLECTION_EXAMPLES_TEXT]) {
      const examples = text.split("\n\nPrevious trial:");
      expect(examples).toHaveLength(2);
      expect(text.startsWith("Previous trial:\n")).toBe(true);
      expect(text).toMatch(/phrasing discrepancy/);
      expect(text.match(/\nThought 1: /g)).toHaveLength(2);
      expect(text.match(/\nAction 1: Finish\[/g)).toHaveLength(2);
      expect(text.match(/\nObservation 1: Episode finished, answer submitted: /g)).toHaveLength(2);
      expect(text.match(/\n\nEvaluator: Answer "[^"]+" does not match the gold answer by exact match\.\n\nReflection: /g)).toHaveLength(2);
    }
    expect(COT_CONTEXT_REFLECTION_EXAMPLES_TEXT.match(/Previous trial:\nRelevant Context:\n/g)).toHaveLength(2);
    expect(COT_REFLECTION_EXAMPLES_TEXT).not.toContain(CONTEXT_LABEL);
  });

  it("offer no tools and are about facts of their own, not the built-in tasks'", () => {
    const all = [COT_EXAMPLES_TEXT, COT_CONTEXT_EXAMPLES_TEXT, COT_REFLECTION_EXAMPLES_TEXT, COT_CONTEXT_REFLECTION_EXAMPLES_TEXT].join("\n");
    expect(all).not.toMatch(/Search\[|Lookup\[/);
    for (const builtin of builtinQaTasks) {
      for (const paragraph of builtin.paragraphs) expect(all, paragraph.title).not.toContain(paragraph.title);
      expect(all).not.toContain(builtin.answer);
    }
  });
});

const steps: TrajectoryStep[] = [
  { step: 1, thought: "Find the town.", actionText: "Search[The Glass Orchard]", observation: "It was staged\nin Dunmere." },
  { step: 2, thought: "", actionText: "Finish[Dunmere]", observation: "Episode finished, answer submitted: Dunmere" },
];

describe("renderLastAttempt (last-attempt strategies)", () => {
  it("renders the header, the question, the trajectory and the end marker, then a blank line", () => {
    expect(renderLastAttempt(task, steps)).toBe(`${LAST_ATTEMPT_HEADER}\nQuestion: ${task.question}${renderTrajectory(steps)}\n${END_PREVIOUS_TRIAL_MARKER}\n\n`);
    expect(qaEnvironment.renderLastAttempt).toBe(renderLastAttempt);
  });

  it("replaces the longest observations until the trajectory fits the character budget", () => {
    const long = (n: number) => `${"x".repeat(n)}.`;
    const big: TrajectoryStep[] = [
      { step: 1, thought: "a", actionText: "Search[A]", observation: long(3000) },
      { step: 2, thought: "b", actionText: "Search[B]", observation: long(4000) },
      { step: 3, thought: "c", actionText: "Search[C]", observation: long(500) },
    ];
    const block = renderLastAttempt(task, big);
    expect(block).toContain(`Observation 2: ${TRUNCATED_OBSERVATION}`);
    expect(block).toContain(`Observation 1: ${long(3000)}`);
    expect(block).toContain(`Observation 3: ${long(500)}`);
    expect(big[1]!.observation).toBe(long(4000)); // the input is not modified
  });

  it("stops when nothing is left to truncate (pitfall 8) and leaves short trajectories alone", () => {
    const thoughts = Array.from({ length: 3 }, (_, index) => ({ step: index + 1, thought: "t".repeat(3000), actionText: "Search[x]", observation: "y".repeat(100) }));
    const kept = truncateLongestObservations(thoughts, renderTrajectory, LAST_ATTEMPT_CHAR_BUDGET, TRUNCATED_OBSERVATION);
    expect(kept.map((step) => step.observation)).toEqual([TRUNCATED_OBSERVATION, TRUNCATED_OBSERVATION, TRUNCATED_OBSERVATION]);
    expect(truncateLongestObservations(steps, renderTrajectory, LAST_ATTEMPT_CHAR_BUDGET, TRUNCATED_OBSERVATION)).toEqual(steps);
  });
});

describe("renderMemory after the previous trial", () => {
  it("uses the shorter header when the previous trial's block comes first, the usual one otherwise", () => {
    expect(renderMemory([memoryItem("Lesson.")], { afterLastAttempt: true })).toBe(`${reflectionsHeaderAfterLastAttempt(1)}\nReflections:\n- Lesson.\n\n`);
    expect(reflectionsHeaderAfterLastAttempt(1)).not.toContain("attempted");
    expect(reflectionsHeaderAfterLastAttempt(2)).toContain("reflections below");
    expect(renderMemory([memoryItem("Lesson.")], { afterLastAttempt: false })).toBe(renderMemory([memoryItem("Lesson.")]));
    expect(renderMemory([], { afterLastAttempt: true })).toBe("");
  });
});

describe("the episode without tools (cot variants)", () => {
  it("rejects Search, Lookup and malformed actions, accepts Finish", () => {
    for (const strategy of ["cot", "cot-gold-context"] as const) {
      const episode = startQaEpisode(task, { strategy });
      expect(episode.step(parseAction("Search[Dunmere]"))).toEqual({ observation: NO_TOOLS_INVALID_ACTION_OBSERVATION, done: false, answer: null });
      expect(episode.step(parseAction("Lookup[river]")).observation).toBe(NO_TOOLS_INVALID_ACTION_OBSERVATION);
      expect(episode.step(parseAction("no action")).observation).toBe(NO_TOOLS_INVALID_ACTION_OBSERVATION);
      expect(episode.step(parseAction("Finish[River Sallow]"))).toMatchObject({ done: true, answer: "River Sallow" });
    }
  });

  it("keeps the tools under the ReAct strategies and without options", () => {
    for (const episode of [startQaEpisode(task), startQaEpisode(task, { strategy: "last-attempt" }), qaEnvironment.startEpisode(task, {})]) {
      expect(episode.step(parseAction("Search[Dunmere]")).observation).toContain("River Sallow");
      expect(episode.step(parseAction("Compare[x]")).observation).toBe(INVALID_ACTION_OBSERVATION);
    }
  });
});

describe("the demo script book's chain-of-thought script", () => {
  const cases = builtinQaTasks.map((builtin) => [builtin.id, builtin] as const);
  const scriptOf = (id: string) => builtinQaDemoScripts[id]!;
  const respond = (prompt: string) => qaDemoScriptBook.respond(prompt);

  it.each(cases)("%s: the CoT reflection carries the CoT lesson; the naive answer fails exact match, the informed one passes", (id, builtin) => {
    const { cot } = scriptOf(id);
    expect(cot.lessonKeywords.length).toBeGreaterThan(0);
    expect(hasLesson(cot.reflection, cot.lessonKeywords)).toBe(true);
    const answerOf = (action: string) => {
      const parsed = parseAction(action);
      if (!parsed.ok || parsed.action.type !== "Finish") throw new Error(`not a Finish: ${action}`);
      return parsed.action.argument;
    };
    expect(exactMatch(answerOf(cot.naive.action), builtin.answer)).toBe(false);
    expect(exactMatch(answerOf(cot.informed.action), builtin.answer)).toBe(true);
  });

  it.each(cases)("%s: a CoT prompt gets one Thought and Finish: naive without the lesson, informed with it", (id, builtin) => {
    const { cot } = scriptOf(id);
    for (const strategy of ["cot", "cot-gold-context"] as const) {
      expect(respond(actorPrompt(strategy, builtin))).toBe(` ${cot.naive.thought}\nAction 1: ${cot.naive.action}`);
      expect(respond(actorPrompt(strategy, builtin, renderMemory([memoryItem(cot.reflection)])))).toBe(` ${cot.informed.thought}\nAction 1: ${cot.informed.action}`);
      const failed = [{ step: 1, thought: cot.naive.thought, actionText: cot.naive.action, observation: "x" }];
      expect(respond(reflectorPrompt(strategy, builtin, failed, "wrong"))).toBe(cot.reflection);
    }
  });

  it.each(cases)("%s: the gold context and the header never carry the CoT lesson by themselves", (id, builtin) => {
    const prompt = actorPrompt("cot-gold-context", builtin, renderMemory([memoryItem("A neutral note.")]));
    const located = findLastQuestion(prompt)!;
    expect(hasLesson(memoryBlockOf(prompt, located.index), scriptOf(id).cot.lessonKeywords)).toBe(false);
  });

  it("tells CoT prompts from ReAct prompts by the instruction", () => {
    expect(isCotPrompt(actorPrompt("cot", task))).toBe(true);
    expect(isCotPrompt(actorPrompt("cot-gold-context", task))).toBe(true);
    expect(isCotPrompt(reflectorPrompt("cot", task, [], "x"))).toBe(true);
    expect(isCotPrompt(actorPrompt("reflexion", task))).toBe(false);
    expect(isCotPrompt(reflectorPrompt("reflexion", task, [], "x"))).toBe(false);
    expect(isCotPrompt(`Question: ${task.question}\nThought 1:`)).toBe(false);
  });
});

describe("the demo script book and the previous trial's block", () => {
  it("does not take a lesson from the previous trajectory, only from the reflections after it", () => {
    // The naive trajectory of task 1 mentions Dunmere and the question mentions the river: both keywords.
    const { lessonKeywords, naive, informed, reflection } = builtinQaDemoScripts[task.id]!;
    const previous = renderLastAttempt(task, [{ step: 1, thought: naive[0]!.thought, actionText: naive[0]!.action, observation: "It was first staged in Dunmere." }]);
    expect(hasLesson(previous, lessonKeywords)).toBe(true);
    const onlyPrevious = actorPrompt("last-attempt", task, previous);
    expect(qaDemoScriptBook.respond(onlyPrevious)).toBe(` ${naive[0]!.thought}\nAction 1: ${naive[0]!.action}`);
    const withReflection = actorPrompt("last-attempt-and-reflexion", task, previous + renderMemory([memoryItem(reflection)], { afterLastAttempt: true }));
    expect(qaDemoScriptBook.respond(withReflection)).toBe(` ${informed[0]!.thought}\nAction 1: ${informed[0]!.action}`);
  });
});
