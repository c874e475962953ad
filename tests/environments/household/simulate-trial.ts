import type { TrajectoryStep, Verdict } from "@/lib/domain/environment";
import type { MemoryItem } from "@/lib/domain/events";
import { householdEnvironment } from "@/lib/environments/household";
import type { HouseholdTask } from "@/lib/environments/household/task";

/**
 * A tiny stand-in for the engine's loop, for tests only: renders the default
 * templates with plain `{name}` substitution, asks a responder (the demo
 * script book) for each completion, runs the household episode, and stops on
 * success, on the family's early-stop heuristic, or at the step budget — in the
 * same order as lib/engine/decide.ts.
 */

const family = householdEnvironment;

/** Replaces every `{name}` with `variables[name]`; throws on a placeholder without a value. */
export function fillTemplate(template: string, variables: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = variables[name];
    if (value === undefined) throw new Error(`no value for {${name}}`);
    return value;
  });
}

/** Renders the Actor prompt for step `step`. */
export function actorPrompt(task: HouseholdTask, memory: readonly MemoryItem[], steps: readonly TrajectoryStep[], step: number): string {
  return fillTemplate(family.defaultTemplates.actor.text, {
    ...family.promptVariables(task),
    memory: family.renderMemory(memory),
    scratchpad: family.renderTrajectory(steps) + family.stepPrefix(step),
  });
}

/** Renders the Self-Reflection prompt for a failed trial. */
export function reflectorPrompt(task: HouseholdTask, steps: readonly TrajectoryStep[], feedback: string): string {
  return fillTemplate(family.defaultTemplates.reflector.text, {
    ...family.promptVariables(task),
    scratchpad: family.renderTrajectory(steps),
    feedback,
  });
}

export interface SimulatedTrial {
  steps: TrajectoryStep[];
  prompts: string[];
  /** True when the trial stopped without success (early stop or step budget). */
  halted: boolean;
  haltReason: string | null;
  verdict: Verdict;
  /** The StepResult.state of the last step. */
  lastState: Record<string, unknown> | null;
}

/** Runs one trial of at most `maxSteps` steps (family default 30). */
export function runTrial(
  task: HouseholdTask,
  memory: readonly MemoryItem[],
  respond: (prompt: string) => string | null,
  maxSteps = family.defaultMaxStepsPerTrial ?? 30,
): SimulatedTrial {
  const episode = family.startEpisode(task);
  const steps: TrajectoryStep[] = [];
  const prompts: string[] = [];
  let done = false;
  let haltReason: string | null = null;
  let lastState: Record<string, unknown> | null = null;
  for (let step = 1; !done; step += 1) {
    if (steps.length >= maxSteps) {
      haltReason = `Step limit reached (${maxSteps} steps) without finishing.`;
      break;
    }
    const early = steps.length > 0 ? (family.earlyStop?.(steps) ?? null) : null;
    if (early !== null) {
      haltReason = early;
      break;
    }
    const prompt = actorPrompt(task, memory, steps, step);
    prompts.push(prompt);
    const completion = respond(prompt);
    if (completion === null) throw new Error(`no completion for step ${step}`);
    const { thought, actionText } = family.splitCompletion(completion);
    const result = episode.step(family.parseAction(actionText));
    steps.push({ step, thought, actionText, observation: result.observation });
    done = result.done;
    lastState = result.state ?? null;
  }
  return { steps, prompts, halted: !done, haltReason, verdict: family.evaluate(task, null, episode), lastState };
}

/** A memory item as the engine would store it. */
export function memoryItem(text: string, trial: number | null = 1): MemoryItem {
  return { id: `reflection-${trial ?? "manual"}-${text.length}`, text, trial };
}
