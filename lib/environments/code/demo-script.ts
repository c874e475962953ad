import type { DemoScriptBook } from "@/lib/domain/demo-script";
import { matchKeyFacts } from "@/lib/domain/key-facts";
import { builtinCodeDemoScripts } from "./builtin-demo-scripts";
import { builtinCodeKeyFacts } from "./builtin-key-facts";
import { builtinCodeTasks } from "./builtin-tasks";
import type { CodeDemoScript } from "./demo-script-types";
import { codeDemoRefineReply } from "./demo-refine";
import { FEEDBACK_PROMPT_END, REFINE_PROMPT_END } from "@/lib/domain/self-refine";
import { CODE_LABELS, LANGUAGE_NAMES, fenced } from "./prompts";
import type { CodeLanguage, CodeTask } from "./task";

/**
 * The offline demo model on code prompts: a pure function from a rendered code
 * prompt to a completion (DESIGN.md §4). On a built-in task it plays an Actor
 * that writes the task's scripted internal tests, then a first implementation
 * that misses the task's edge case, and a Self-Reflection that names it; the
 * Actor writes the correct implementation only when the reflections in its
 * prompt state every key fact of the task (builtin-key-facts.ts, in any
 * wording the facts allow; so editing the reflection changes the next trial). Two tasks have weak internal tests that pass the
 * wrong first program: the false-positive lesson of the paper's MBPP results.
 *
 * As Self-Refine's critic it names the first implementation's bug and its refinement fixes it
 * (demo-refine.ts), so on code Self-Refine helps within one trial.
 *
 * On a code prompt for any other task it answers with clearly labelled
 * placeholder code, so a run on an uploaded dataset shows the loop without
 * pretending to solve anything. Prompts that are not code prompts: null.
 */

const LANGUAGE_BY_NAME: Record<string, CodeLanguage> = { Python: "python", JavaScript: "javascript", TypeScript: "typescript" };

/** The language a code Actor or Self-Reflection prompt asks for, or null when it is not a code prompt. */
function promptLanguage(prompt: string): CodeLanguage | null {
  const match = /only responds with (Python|JavaScript|TypeScript) code|You are a (Python|JavaScript|TypeScript) programming assistant/.exec(prompt);
  const name = match?.[1] ?? match?.[2];
  return name ? (LANGUAGE_BY_NAME[name] ?? null) : null;
}

/** The built-in task whose signature the prompt shows after its last request label, if any. */
function findTask(prompt: string): { task: CodeTask; script: CodeDemoScript } | null {
  for (const task of builtinCodeTasks) {
    const script = builtinCodeDemoScripts[task.id];
    if (script && prompt.includes(task.prompt.trim())) return { task, script };
  }
  return null;
}

/** A reflection prompt carries the implementation; find the task by its entry point's definition there. */
function findTaskByImplementation(prompt: string): { task: CodeTask; script: CodeDemoScript } | null {
  const impl = prompt.slice(prompt.lastIndexOf(CODE_LABELS.functionImpl));
  for (const task of builtinCodeTasks) {
    const script = builtinCodeDemoScripts[task.id];
    if (script && new RegExp(`(def|function)\\s+${task.entryPoint}\\b`).test(impl)) return { task, script };
  }
  return null;
}

/** The text between the reflections header and the request: what the Actor was told to remember. */
function memoryBlock(prompt: string): string {
  const start = Math.max(prompt.lastIndexOf(CODE_LABELS.reflection), prompt.lastIndexOf(CODE_LABELS.reflections));
  if (start === -1) return "";
  const end = prompt.indexOf(CODE_LABELS.improvedImpl, start);
  return prompt.slice(start, end === -1 ? undefined : end).toLowerCase();
}

function placeholder(language: CodeLanguage, what: "tests" | "implementation"): string {
  const comment = language === "python" ? "#" : "//";
  const note = `${comment} The offline demo model is a scripted stand-in with no script for this task.`;
  if (what === "tests") return fenced(`${note}\n${comment} (no tests written)`, language);
  const body =
    language === "python"
      ? `${note}\nraise NotImplementedError("the offline demo model has no script for this task")`
      : `${note}\nthrow new Error("the offline demo model has no script for this task");`;
  return fenced(body, language);
}

/** The code family's {@link DemoScriptBook}. */
export const codeDemoScriptBook: DemoScriptBook = {
  respond(prompt) {
    const language = promptLanguage(prompt);
    if (language === null) return null;
    const tail = prompt.trimEnd();
    if (tail.endsWith(CODE_LABELS.selfReflection)) {
      const found = findTaskByImplementation(prompt);
      return found
        ? found.script.reflection
        : `I am the offline demo model (a scripted stand-in) and have no reflection for this ${LANGUAGE_NAMES[language]} task; next time I should read each failing test and handle the input it shows.`;
    }
    const found = findTask(prompt);
    // Self-Refine's feedback and refine prompts (demo-refine.ts); other tasks get the generic demo reply.
    if (tail.endsWith(FEEDBACK_PROMPT_END) || tail.endsWith(REFINE_PROMPT_END)) return found ? codeDemoRefineReply(found.task, found.script, prompt, language) : null;
    if (tail.endsWith(CODE_LABELS.unitTests)) {
      return found ? fenced(found.script.internalTests.join("\n"), language) : placeholder(language, "tests");
    }
    if (!found) return placeholder(language, "implementation");
    const memory = memoryBlock(prompt);
    const informed = matchKeyFacts(builtinCodeKeyFacts[found.task.id] ?? [], memory).helps;
    return fenced((informed ? found.script.informed : found.script.naive).trimEnd(), language);
  },
};
