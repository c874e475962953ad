import type { DemoScriptBook } from "@/lib/domain/demo-script";
import { matchKeyFacts, type KeyFact } from "@/lib/domain/key-facts";
import { demoReflectionFor, instructionOf } from "@/lib/domain/reflector-wording";
import { builtinHouseholdDemoScripts } from "./builtin-demo-scripts";
import { builtinHouseholdKeyFacts } from "./builtin-key-facts";
import { builtinHouseholdTasks } from "./builtin-tasks";
import { MEMORY_HEADER, openingText } from "./prompts";
import type { HouseholdDemoScript } from "./demo-script-types";

/**
 * The offline demo model's script for the built-in household tasks: a pure
 * function from a rendered prompt to a completion, mirroring the QA book
 * (lib/environments/qa/demo-script.ts). It plays an Actor that fails trial 1
 * in one of the paper's typical ways and a Self-Reflection model whose
 * reflection names the lesson. The Actor follows the correct ("informed")
 * path only when the memory block of its prompt states every key fact of the
 * task (builtin-key-facts.ts, in any wording the facts allow), so without
 * memory (strategy `none`) it never succeeds, and removing the lesson from a
 * reflection makes it fail again.
 */

export type { HouseholdDemoScript } from "./demo-script-types";

const TASK_LINE = /^Your task is to: .*$/gm;

/** The task's opening (room line + task line) nearest the end of a prompt, with where it starts; null if none. */
export function findLastOpening(prompt: string): { opening: string; index: number; end: number } | null {
  let last: RegExpMatchArray | undefined;
  for (const match of prompt.matchAll(TASK_LINE)) last = match;
  if (last === undefined || last.index === undefined) return null;
  const lineStart = prompt.lastIndexOf("\n", last.index - 2) + 1;
  const end = last.index + last[0].length;
  return { opening: prompt.slice(lineStart, end).trim(), index: lineStart, end };
}

/**
 * The Actor prompt's memory block: from the last memory header before the
 * task's opening up to the opening; `""` when there is no header (no memory).
 */
export function memoryBlockOf(prompt: string, openingIndex: number): string {
  const head = prompt.slice(0, openingIndex);
  const header = head.lastIndexOf(MEMORY_HEADER);
  return header === -1 ? "" : head.slice(header);
}

/** True when `memory` contains every keyword, case-insensitively. */
export function hasLesson(memory: string, keywords: readonly string[]): boolean {
  const folded = memory.toLowerCase();
  return keywords.every((keyword) => folded.includes(keyword.toLowerCase()));
}

/** The number of `>` action lines after the opening (the final bare `>` prompt excluded). */
function stepsTaken(prompt: string, openingEnd: number): number {
  const history = prompt.slice(openingEnd).replace(/\n>\s*$/, "");
  return history.split("\n").filter((line) => line.startsWith(">")).length;
}

const scriptsByOpening = new Map<string, { script: HouseholdDemoScript; facts: readonly KeyFact[] }>(
  builtinHouseholdTasks.flatMap((task) => {
    const script = builtinHouseholdDemoScripts[task.id];
    const facts = builtinHouseholdKeyFacts[task.id];
    return script === undefined || facts === undefined ? [] : [[openingText(task), { script, facts }] as const];
  }),
);

/**
 * The household family's {@link DemoScriptBook}. `respond(prompt)`:
 * 1. finds the built-in task by the last opening in the prompt (room line +
 *    task line; null when it is not a built-in task's);
 * 2. a prompt ending with `Reflection:` gets the task's scripted reflection when the
 *    template's instruction asks for a plan or the next commands, else a vague general
 *    lesson ({@link demoReflectionFor}, lib/domain/reflector-wording.ts);
 * 3. a prompt ending with the prompt sign `>` gets the next command of the
 *    `informed` path when the memory block ({@link memoryBlockOf}) states all the
 *    task's key facts, else of the `naive` path, as ` <command>`; the
 *    command index is the number of `>` lines already after the opening, and past
 *    the end of the path the last command is repeated;
 * 4. anything else gets null.
 */
export const householdDemoScriptBook: DemoScriptBook = {
  respond(prompt: string): string | null {
    const located = findLastOpening(prompt);
    if (located === null) return null;
    const found = scriptsByOpening.get(located.opening);
    if (found === undefined) return null;
    const { script, facts } = found;
    if (/Reflection:\s*$/.test(prompt)) {
      // The reflection follows what the template's instruction asks (lib/domain/reflector-wording.ts).
      return demoReflectionFor(instructionOf(prompt.slice(0, located.index), ["Here are two examples", "Previous trial:"]), script.reflection);
    }
    if (!/\n>\s*$/.test(prompt)) return null;
    const informed = matchKeyFacts(facts, memoryBlockOf(prompt, located.index)).helps;
    const path = informed ? script.informed : script.naive;
    const command = path[Math.min(stepsTaken(prompt, located.end), path.length - 1)];
    return command === undefined ? null : ` ${command}`;
  },
};
