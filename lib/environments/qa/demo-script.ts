import type { DemoScriptBook } from "@/lib/domain/demo-script";
import { builtinQaDemoScripts } from "./builtin-demo-scripts";
import { builtinQaTasks } from "./builtin-tasks";
import { END_OF_EXAMPLES_MARKER } from "./prompts";

/**
 * The offline demo model's script for the built-in QA tasks: a pure function
 * from a rendered prompt to a completion. It plays a ReAct Actor that makes a
 * mistake typical of the paper's HotpotQA runs (answering with the bridge
 * entity or a tempting nearby fact, or searching for things that are not page
 * titles until the step budget runs out), and a Self-Reflection model whose
 * reflection names the lesson. The Actor follows the correct ("informed") path
 * only when the memory block of its prompt contains every lesson keyword of
 * the task, so removing them from a reflection makes it fail again.
 */

/** One scripted Actor step: the thought text and the action line (`Verb[argument]`). */
export interface QaDemoStep {
  thought: string;
  action: string;
}

/** The demo model's script for one built-in task. */
export interface QaDemoScript {
  /**
   * Case-insensitive substrings that must ALL occur in the prompt's memory block
   * for the Actor to take the `informed` path. `reflection` contains every one.
   */
  lessonKeywords: string[];
  /** How the `naive` path fails: a wrong `Finish`, or running out of steps. */
  naiveOutcome: "wrong-answer" | "halted";
  /** Steps without the lesson. Beyond its end, the last step is repeated. */
  naive: QaDemoStep[];
  /** Steps with the lesson: correct searches, then `Finish` with the gold answer. */
  informed: QaDemoStep[];
  /** What the demo Self-Reflection model writes after a failed trial. */
  reflection: string;
}

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
 * template), everything before the final `Question:` line.
 */
export function memoryBlockOf(prompt: string, questionIndex: number): string {
  const head = prompt.slice(0, questionIndex);
  const marker = head.lastIndexOf(END_OF_EXAMPLES_MARKER);
  return marker === -1 ? head : head.slice(marker + END_OF_EXAMPLES_MARKER.length);
}

/** True when `memory` contains every keyword, case-insensitively. */
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

const scriptsByQuestion = new Map(
  builtinQaTasks.flatMap((task) => {
    const script = builtinQaDemoScripts[task.id];
    return script === undefined ? [] : [[normalizeQuestion(task.question), script] as const];
  }),
);

/**
 * The QA family's {@link DemoScriptBook}. `respond(prompt)`:
 * 1. finds the built-in task by the question after the last `Question:` line
 *    (null when it is not a built-in question);
 * 2. a prompt ending with `Reflection:` gets the task's scripted reflection (no
 *    leading space);
 * 3. a prompt ending with `Thought n:` gets step n of the `informed` path when the
 *    memory block ({@link memoryBlockOf}) holds all the task's lesson keywords,
 *    else of the `naive` path, as ` <thought>\nAction n: <Verb>[argument]`; past
 *    the end of the path the last step is repeated with the new number;
 * 4. anything else gets null.
 */
export const qaDemoScriptBook: DemoScriptBook = {
  respond(prompt: string): string | null {
    const located = findLastQuestion(prompt);
    if (located === null) return null;
    const script = scriptsByQuestion.get(located.question);
    if (script === undefined) return null;
    if (/Reflection:\s*$/.test(prompt)) return script.reflection;
    const stepMatch = /Thought[ \t]+(\d+):\s*$/.exec(prompt);
    if (stepMatch === null) return null;
    const step = Number(stepMatch[1]);
    const informed = hasLesson(memoryBlockOf(prompt, located.index), script.lessonKeywords);
    return scriptedStep(informed ? script.informed : script.naive, step);
  },
};
