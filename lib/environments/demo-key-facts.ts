import { strategySchema, type EnvironmentId } from "@/lib/domain/config";
import { helpsWith, type KeyFact, type ReflectionHelpsResult } from "@/lib/domain/key-facts";
import { methodDescriptor } from "@/lib/methods/registry";
import { environmentEntry } from "./registry";

/**
 * The one place that answers "would this reflection help the demo model?"
 * (decision 0022): the demo script books match the memory
 * with the same facts, and the browser gets them from `GET /api/key-facts`
 * and matches with the same lib/domain/key-facts.ts functions.
 */

/** Which task a reflection is about: the run config's family, task id and (for QA) strategy. */
export interface KeyFactTask {
  environment: EnvironmentId;
  taskId: string;
  /** The run's strategy; `cot` / `cot-gold-context` use the QA chain-of-thought facts. */
  strategy?: string;
}

export type { ReflectionHelpsResult };

/**
 * True for the closed-book strategies (the CoT Actors, decision 0008): their method uses no tools,
 * so the demo model's facts are the chain-of-thought ones. An unknown strategy counts as ReAct.
 */
export function isCotStrategy(strategy: string | undefined): boolean {
  const known = strategySchema.safeParse(strategy);
  return known.success && !methodDescriptor(known.data).trial.usesTools;
}

/**
 * The key facts of a built-in task, or null when the task has none (an uploaded task: the demo
 * model has no script for it). Each family answers for its own tasks (the server registry's
 * `demoKeyFacts`, from lib/environments/<family>/builtin-key-facts.ts).
 */
export function keyFactsFor(task: KeyFactTask): readonly KeyFact[] | null {
  return environmentEntry(task.environment).demoKeyFacts(task.taskId, isCotStrategy(task.strategy));
}

/**
 * Would `reflectionText` make the demo model's Actor take the task's informed
 * path? `helps` when the text states every key fact of the task
 * ({@link matchKeyFacts}); `matched` / `missing` are fact ids. For a task with
 * no key facts: `known: false`, `helps: false`.
 */
export function reflectionHelps(task: KeyFactTask, reflectionText: string): ReflectionHelpsResult {
  return helpsWith(keyFactsFor(task), reflectionText);
}
