import type { DemoCallContext, DemoScriptBook } from "@/lib/domain/demo-script";
import { seededInformed } from "@/lib/domain/demo-variation";
import { matchKeyFacts } from "@/lib/domain/key-facts";
import { demoReflectionFor, instructionOf } from "@/lib/domain/reflector-wording";
import { builtinQaDemoScripts } from "./builtin-demo-scripts";
import { builtinQaKeyFacts, type QaTaskKeyFacts } from "./builtin-key-facts";
import { builtinQaTasks } from "./builtin-tasks";
import { COT_NO_TOOLS_PHRASE, CONTEXT_LABEL, END_OF_EXAMPLES_MARKER, END_PREVIOUS_TRIAL_MARKER } from "./prompts";
import type { QaDemoScript, QaDemoStep } from "./demo-script-types";
import { insightHelps } from "./demo-insights";
import { FEEDBACK_PROMPT_END, REFINE_STOP_PHRASE, reviewedAnswerOf } from "@/lib/domain/self-refine";

/**
 * The offline demo model's script for the built-in QA tasks: a pure function
 * from a rendered prompt to a completion. It plays a ReAct Actor that makes a
 * mistake typical of the paper's HotpotQA runs (answering with the bridge
 * entity or a tempting nearby fact, or searching for things that are not page
 * titles and repeating the last failed step until the trial halts: under the
 * engine the loop rule stops it when a step repeats three times, loops.ts),
 * and a Self-Reflection model whose
 * reflection names the lesson. The Actor follows the correct ("informed") path
 * only when the memory block of its prompt states every key fact of the task
 * (builtin-key-facts.ts, lib/domain/key-facts.ts: in any wording the facts
 * allow, so a learner's correct paraphrase helps too), so removing them from a
 * reflection makes it fail again.
 *
 * Under every strategy (docs/decisions/0008-strategies.md):
 * - the lesson counts only in the reflections: the previous trial's block of
 *   the last-attempt strategies (up to `(END PREVIOUS TRIAL)`) and the gold
 *   context of `cot-gold-context` are not memory. So `last-attempt` keeps
 *   failing (the previous trajectory alone does not teach the lesson, the
 *   paper's EPM-vs-Reflexion point) while `last-attempt-and-reflexion`
 *   succeeds once the reflection is there;
 * - a chain-of-thought prompt (its instruction says "without any tools") gets
 *   the task's one-step `cot` script: a Thought then `Finish[...]`, naive
 *   unless the CoT lesson is in memory, and CoT reflector prompts get the CoT
 *   reflection. Closed-book, a real model could not know this invented world;
 *   the demo plays one that does, so the effect of the memory stays visible.
 */

export type { QaDemoCotScript, QaDemoScript, QaDemoStep } from "./demo-script-types";

/** Where a QA reflector template's instruction ends: its examples, or the failed trial. */
const REFLECTOR_INSTRUCTION_ENDS = ["Here are some examples:", "Previous trial:"];

const questionLine = /(?:^|\n)Question:[ \t]*([^\n]*)/g;

function normalizeQuestion(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** The question after the LAST `Question:` line of a prompt, with its position; null if none. */
export function findLastQuestion(prompt: string): { question: string; index: number } | null {
  let last: RegExpMatchArray | undefined;
  for (const match of prompt.matchAll(questionLine)) last = match;
  if (last === undefined || last.index === undefined) return null;
  return { question: normalizeQuestion(last[1] ?? ""), index: last.index };
}

/**
 * The Actor prompt's memory block: the text between the last `(END OF EXAMPLES)`
 * before the final `Question:` line and that line. Without the marker (an edited
 * template), everything before the final `Question:` line. The previous trial's
 * block (everything up to the last `(END PREVIOUS TRIAL)`) and the gold context
 * (from the last `Relevant Context:` on) are left out: they are not lessons.
 */
export function memoryBlockOf(prompt: string, questionIndex: number): string {
  const head = prompt.slice(0, questionIndex);
  const marker = head.lastIndexOf(END_OF_EXAMPLES_MARKER);
  let block = marker === -1 ? head : head.slice(marker + END_OF_EXAMPLES_MARKER.length);
  const previousTrialEnd = block.lastIndexOf(END_PREVIOUS_TRIAL_MARKER);
  if (previousTrialEnd !== -1) block = block.slice(previousTrialEnd + END_PREVIOUS_TRIAL_MARKER.length);
  const context = block.lastIndexOf(CONTEXT_LABEL);
  if (context !== -1) block = block.slice(0, context);
  return block;
}

/**
 * True for a chain-of-thought prompt: its instruction (the text before the
 * first `Here are some examples:`) contains {@link COT_NO_TOOLS_PHRASE}. A
 * prompt without examples is never one.
 */
export function isCotPrompt(prompt: string): boolean {
  const examples = prompt.indexOf("Here are some examples:");
  return examples !== -1 && prompt.slice(0, examples).includes(COT_NO_TOOLS_PHRASE);
}

/** True when `memory` contains every keyword, case-insensitively (the lesson keywords' own check; the Actor decides by key facts). */
export function hasLesson(memory: string, keywords: readonly string[]): boolean {
  const folded = memory.toLowerCase();
  return keywords.every((keyword) => folded.includes(keyword.toLowerCase()));
}

/** The script's completion for Actor step `step` (1-based) on `path`: ` <thought>\nAction n: <action>`. */
export function scriptedStep(path: readonly QaDemoStep[], step: number): string | null {
  const index = Math.min(Math.max(step, 1), path.length) - 1;
  const scripted = path[index];
  if (scripted === undefined) return null;
  return ` ${scripted.thought}\nAction ${step}: ${scripted.action}`;
}

/**
 * The demo's feedback on a QA answer: the feedback prompt shows only the question and the answer,
 * and in this invented world a closed-book critic has nothing to check a name against, so it
 * accepts any non-empty answer of the right form (with the stop phrase) and asks for one otherwise.
 */
export function qaDemoFeedback(answer: string | null): string {
  if (answer === null || answer.trim() === "" || answer.trim().toLowerCase() === "unknown") {
    return "The answer does not name anything: it should be the entity or value the question asks for.";
  }
  return `The answer "${answer.trim()}" is a short phrase of the kind the question asks for, and nothing in the question contradicts it. ${REFINE_STOP_PHRASE}`;
}

const scriptsByQuestion = new Map<string, { script: QaDemoScript; facts: QaTaskKeyFacts; taskId: string }>(
  builtinQaTasks.flatMap((task) => {
    const script = builtinQaDemoScripts[task.id];
    const facts = builtinQaKeyFacts[task.id];
    return script === undefined || facts === undefined ? [] : [[normalizeQuestion(task.question), { script, facts, taskId: task.id }] as const];
  }),
);

/**
 * The QA family's {@link DemoScriptBook}. `respond(prompt)`:
 * 1. finds the built-in task by the question after the last `Question:` line
 *    (null when it is not a built-in question);
 * 2. a prompt ending with `Reflection:` gets the task's scripted reflection (no
 *    leading space; the `cot` reflection for a chain-of-thought prompt, {@link isCotPrompt})
 *    when the template's instruction asks for a plan or the next action, else a vague
 *    general lesson ({@link demoReflectionFor}, lib/domain/reflector-wording.ts);
 * 3. a prompt ending with `Thought n:` gets step n of the `informed` path when the
 *    memory block ({@link memoryBlockOf}) states all the task's key facts,
 *    else of the `naive` path, as ` <thought>\nAction n: <Verb>[argument]`; past
 *    the end of the path the last step is repeated with the new number. A
 *    chain-of-thought prompt gets the `cot` script's one step (informed when the
 *    memory states the CoT key facts) in the same shape; with `context.seed` the
 *    choice of path is drawn ({@link seededInformed}); a carried-in ExpeL insight
 *    of the task's kind leads to the informed path with a seeded chance
 *    ({@link insightHelps});
 * 4. a Self-Refine feedback prompt (ending with `Feedback:`) gets a review that finds the answer
 *    fine ({@link qaDemoFeedback}): so on QA Self-Refine changes nothing (its refine prompt, never
 *    reached through the built-in template, gets the generic demo reply: the answer unchanged);
 * 5. anything else gets null.
 */
export const qaDemoScriptBook: DemoScriptBook = {
  respond(prompt: string, context?: DemoCallContext): string | null {
    const located = findLastQuestion(prompt);
    if (located === null) return null;
    const found = scriptsByQuestion.get(located.question);
    if (found === undefined) return null;
    const { script, facts } = found;
    // Self-Refine's critic: without the trajectory or a tool it cannot check the fact, so it finds the answer fine.
    if (prompt.trimEnd().endsWith(FEEDBACK_PROMPT_END)) return qaDemoFeedback(reviewedAnswerOf(prompt));
    const cot = isCotPrompt(prompt);
    if (/Reflection:\s*$/.test(prompt)) {
      // The reflection follows what the template's instruction asks (lib/domain/reflector-wording.ts).
      const instruction = instructionOf(prompt.slice(0, located.index), REFLECTOR_INSTRUCTION_ENDS);
      return demoReflectionFor(instruction, cot ? script.cot.reflection : script.reflection);
    }
    const stepMatch = /Thought[ \t]+(\d+):\s*$/.exec(prompt);
    if (stepMatch === null) return null;
    const step = Number(stepMatch[1]);
    const memory = memoryBlockOf(prompt, located.index);
    // With a seed (repeats), whether the lesson is acted on is drawn per task and memory (lib/domain/demo-variation.ts).
    const key = `${located.question}\u0000${memory}`;
    if (cot) return scriptedStep([seededInformed(context?.seed, key, matchKeyFacts(facts.cot, memory).helps) ? script.cot.informed : script.cot.naive], step);
    // A carried-in ExpeL insight of the task's kind may lead to the informed path too (demo-insights.ts).
    const informed = seededInformed(context?.seed, key, matchKeyFacts(facts.react, memory).helps) || insightHelps(found.taskId, memory, context?.seed, key);
    return scriptedStep(informed ? script.informed : script.naive, step);
  },
};
