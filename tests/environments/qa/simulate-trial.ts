import type { TrajectoryStep, Verdict } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { qaEnvironment } from "@/lib/environments/qa";
import type { QaTask } from "@/lib/environments/qa/task";

/**
 * A tiny stand-in for the engine's loop, for tests only: renders the default
 * templates with plain `{name}` substitution, asks a responder (the demo
 * script book) for each completion, and runs the QA environment.
 */

/** Replaces every `{name}` with `variables[name]`; throws on a placeholder without a value. */
export function fillTemplate(template: string, variables: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = variables[name];
    if (value === undefined) throw new Error(`no value for {${name}}`);
    return value;
  });
}

/** Renders the Actor prompt for step `step`. */
export function actorPrompt(task: QaTask, memory: readonly MemoryItem[], steps: readonly TrajectoryStep[], step: number): string {
  return fillTemplate(qaEnvironment.defaultTemplates.actor.text, {
    ...qaEnvironment.promptVariables(task),
    memory: qaEnvironment.renderMemory(memory),
    // As lib/engine/prompts.ts builds it.
    scratchpad: qaEnvironment.renderTrajectory(steps) + qaEnvironment.stepPrefix(step),
  });
}

/** Renders the Self-Reflection prompt for a failed trial. */
export function reflectorPrompt(task: QaTask, steps: readonly TrajectoryStep[], feedback: string): string {
  return fillTemplate(qaEnvironment.defaultTemplates.reflector.text, {
    ...qaEnvironment.promptVariables(task),
    scratchpad: qaEnvironment.renderTrajectory(steps),
    feedback,
  });
}

export interface SimulatedTrial {
  steps: TrajectoryStep[];
  prompts: string[];
  answer: string | null;
  halted: boolean;
  verdict: Verdict;
}

/** Runs one trial of at most `maxSteps` steps (reference: 6). */
export function runTrial(
  task: QaTask,
  memory: readonly MemoryItem[],
  respond: (prompt: string) => string | null,
  maxSteps = 6,
): SimulatedTrial {
  const episode = qaEnvironment.startEpisode(task);
  const steps: TrajectoryStep[] = [];
  const prompts: string[] = [];
  let answer: string | null = null;
  let done = false;
  for (let step = 1; step <= maxSteps && !done; step += 1) {
    const prompt = actorPrompt(task, memory, steps, step);
    prompts.push(prompt);
    const completion = respond(prompt);
    if (completion === null) throw new Error(`no completion for step ${step}`);
    const { thought, actionText } = qaEnvironment.splitCompletion(completion);
    const result = episode.step(qaEnvironment.parseAction(actionText));
    steps.push({ step, thought, actionText, observation: result.observation });
    done = result.done;
    answer = result.answer;
  }
  return { steps, prompts, answer, halted: !done, verdict: qaEnvironment.evaluate(task, answer, episode) };
}

/** A memory item as the engine would store it. */
export function memoryItem(text: string, trial: number | null = 1): MemoryItem {
  return { id: `reflection-${trial ?? "manual"}-${text.length}`, text, trial };
}
