import type { RunConfig } from "@/lib/domain/config";
import type { EnvironmentFamily, TrajectoryStep } from "@/lib/domain/environment";
import type { ChatMessage } from "@/lib/domain/events";
import type { TrialView } from "@/lib/domain/fold-run";
import { renderTemplate } from "./render-template";
import { strategyBehaviour } from "./strategies";

/** The recorded steps of a trial that have an observation, in the shape templates render. */
export function trajectoryOf(trial: TrialView): TrajectoryStep[] {
  return trial.steps
    .filter((step) => step.observation !== null)
    .map((step) => ({
      step: step.step,
      thought: step.thought?.text ?? "",
      actionText: step.action?.text ?? "",
      observation: step.observation?.text ?? "",
      state: step.observation?.state ?? null,
    }));
}

/**
 * The Actor's `{memory}` slot for a trial, in the reference's order (§2.7):
 * the previous trial's block (strategies that include the last attempt, from
 * trial 2 on, when the family can render it), then the reflections the trial
 * started with (`TrialView.memory`, already windowed by the strategy at
 * `trial-start`). Either part may be empty; both empty gives `""`, so trial 1
 * renders the same prompt under every strategy that shares a template.
 *
 * @param previousTrial trial n − 1 of the folded state (`RunState.trials`), or null for trial 1.
 */
export function renderMemorySlot<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  previousTrial: TrialView | null,
): string {
  const behaviour = strategyBehaviour(config.strategy);
  const lastAttempt =
    behaviour.includesLastAttempt && previousTrial !== null && family.renderLastAttempt
      ? family.renderLastAttempt(task, trajectoryOf(previousTrial))
      : "";
  return lastAttempt + family.renderMemory(trial.memory, { afterLastAttempt: lastAttempt !== "" });
}

/**
 * The Actor prompt for step `step` of `trial`: the run's Actor template with the
 * family's variables for the run's strategy, the memory slot (`{memory}`, see
 * {@link renderMemorySlot}) and the scratchpad so far ending in the step prefix
 * (`{scratchpad}`). Sent as one user message, as the completion-style reference
 * prompts are.
 *
 * @param previousTrial trial n − 1 of the folded state (`RunState.trials`); needed by
 *   `last-attempt` and `last-attempt-and-reflexion`, ignored by the other strategies.
 *   Omitted or null: no previous-trial block.
 * @param allTrials every trial of the folded state; families with `actorVariables`
 *   read the earlier ones (the code family's internal tests and previous implementation).
 *   Defaults to `[previousTrial]`.
 */
export function buildActorMessages<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  step: number,
  previousTrial: TrialView | null = null,
  allTrials: readonly TrialView[] = previousTrial ? [previousTrial] : [],
): ChatMessage[] {
  const steps = trajectoryOf(trial);
  const earlierTrials = allTrials.filter((t) => t.trial < trial.trial).map(trajectoryOf);
  const { text } = renderTemplate(config.templates.actor.text, {
    ...family.promptVariables(task, config.strategy),
    memory: renderMemorySlot(config, family, task, trial, previousTrial),
    scratchpad: family.renderTrajectory(steps) + family.stepPrefix(step),
    ...family.actorVariables?.(task, { trial: trial.trial, step, strategy: config.strategy, steps, earlierTrials }),
  });
  return [{ role: "user", content: text }];
}

/**
 * The Self-Reflection prompt after a failed trial: the reflector template with the
 * family's variables for the run's strategy, the trial's full trajectory
 * (`{scratchpad}`) and the Evaluator's feedback (`{feedback}`).
 */
export function buildReflectorMessages<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
): ChatMessage[] {
  const { text } = renderTemplate(config.templates.reflector.text, {
    ...family.promptVariables(task, config.strategy),
    scratchpad: family.renderTrajectory(trajectoryOf(trial)),
    feedback: trial.evaluation?.feedback ?? "",
  });
  return [{ role: "user", content: text }];
}

/** Reflections are kept to one paragraph: trimmed, inner newlines folded to spaces (reference §2.6). */
export function cleanReflection(text: string): string {
  return text.replace(/\s*\n+\s*/g, " ").trim();
}
