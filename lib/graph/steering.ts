import type { RunState } from "@/lib/domain/fold-run";
import { writesInternalTestsNext } from "@/lib/domain/code-trial";
import { nextActorStep } from "@/lib/domain/next-step";
import { codeRunOf } from "./code-views";
import type { CodeLanguage } from "./types";

/** What a person's next action on a code run is: the internal tests (trial 1, until a runnable test is kept) or a whole program. */
export type CodeNextAction = { kind: "tests" | "program"; language: CodeLanguage; trial: number; step: number; placeholder: string };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function stringField(task: Record<string, unknown>, name: string): string | null {
  const value = task[name];
  return typeof value === "string" ? value : null;
}

/** An assert in the task's language, the form the Actor's prompt asks for (lib/environments/code/prompts.ts). */
export function assertExample(language: CodeLanguage, entryPoint: string): string {
  return language === "python" ? `assert ${entryPoint}(...) == ...` : `assert.deepStrictEqual(${entryPoint}(...), ...);`;
}

/** The task's signature line (`def f(…) -> …:` / `function f(…) {`) from its prompt, or null. */
function signatureLine(prompt: string, entryPoint: string, language: CodeLanguage): string | null {
  const pattern = language === "python" ? new RegExp(`^\\s*(async\\s+)?def\\s+${entryPoint}\\b`) : new RegExp(`^\\s*(export\\s+)?(async\\s+)?function\\s*\\*?\\s*${entryPoint}\\b`);
  const line = prompt.split(/\r?\n/).find((candidate) => pattern.test(candidate));
  return line ? line.trim() : null;
}

/** A program skeleton for the task: its signature (when the prompt shows one) and a body to fill in. */
export function programExample(language: CodeLanguage, entryPoint: string, prompt: string | null): string {
  const signature = prompt ? signatureLine(prompt, entryPoint, language) : null;
  if (language === "python") return `${signature ?? `def ${entryPoint}(...):`}\n    ...`;
  const head = signature ? (signature.endsWith("{") ? signature : `${signature} {`) : `function ${entryPoint}(...) {`;
  return `${head}\n  // …\n}`;
}

/**
 * On a code run: what the Actor's next action is (tests in trial 1 until a runnable one is kept,
 * else a program) and a placeholder for writing it. Null for other families.
 */
export function codeNextAction(state: RunState): CodeNextAction | null {
  const run = codeRunOf(state);
  const task = state.config?.task;
  if (!run || !task) return null;
  const { trial, step } = nextActorStep(state);
  const named = stringField(task, "entryPoint");
  const entryPoint = named && IDENTIFIER.test(named) ? named : "f";
  const steps = state.trials.find((t) => t.trial === trial)?.steps ?? [];
  if (writesInternalTestsNext(trial, steps.map((s) => ({ state: s.observation?.state ?? null })))) {
    return { kind: "tests", language: run.language, trial, step, placeholder: assertExample(run.language, entryPoint) };
  }
  return { kind: "program", language: run.language, trial, step, placeholder: programExample(run.language, entryPoint, stringField(task, "prompt")) };
}
