import type { RunConfig } from "@/lib/domain/config";
import type { EnvironmentFamily, TrajectoryStep } from "@/lib/domain/environment";
import type { ChatMessage } from "@/lib/domain/events";
import type { TrialView } from "@/lib/domain/fold-run";
import { renderTemplate } from "./render-template";

/** The recorded steps of a trial that have an observation, in the shape templates render. */
export function trajectoryOf(trial: TrialView): TrajectoryStep[] {
  return trial.steps
    .filter((step) => step.observation !== null)
    .map((step) => ({
      step: step.step,
      thought: step.thought?.text ?? "",
      actionText: step.action?.text ?? "",
      observation: step.observation?.text ?? "",
    }));
}

/**
 * The Actor prompt for step `step` of `trial`: the run's Actor template with the
 * family's variables, the memory in context (`{memory}`) and the scratchpad so far
 * ending in the step prefix (`{scratchpad}`). Sent as one user message, as the
 * completion-style reference prompts are.
 */
export function buildActorMessages<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  step: number,
): ChatMessage[] {
  const { text } = renderTemplate(config.templates.actor.text, {
    ...family.promptVariables(task),
    memory: family.renderMemory(trial.memory),
    scratchpad: family.renderTrajectory(trajectoryOf(trial)) + family.stepPrefix(step),
  });
  return [{ role: "user", content: text }];
}

/**
 * The Self-Reflection prompt after a failed trial: the reflector template with the
 * trial's full trajectory (`{scratchpad}`) and the Evaluator's feedback (`{feedback}`).
 */
export function buildReflectorMessages<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
): ChatMessage[] {
  const { text } = renderTemplate(config.templates.reflector.text, {
    ...family.promptVariables(task),
    scratchpad: family.renderTrajectory(trajectoryOf(trial)),
    feedback: trial.evaluation?.feedback ?? "",
  });
  return [{ role: "user", content: text }];
}

/** Reflections are kept to one paragraph: trimmed, inner newlines folded to spaces (reference §2.6). */
export function cleanReflection(text: string): string {
  return text.replace(/\s*\n+\s*/g, " ").trim();
}
