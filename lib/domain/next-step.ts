import type { RunConfig } from "./config";
import type { RunState, TrialView } from "./fold-run";
import { strategyBehaviour } from "./strategies";

/**
 * The Actor's steps within a trial (paper §3: the Actor acts until the episode
 * ends or the step budget is spent, then the Evaluator judges the trajectory).
 * The engine (lib/engine/decide.ts), the server's action edit and the UI's
 * Steer tab all place "the next step" with these functions.
 */

/** Steps of `trial` that have their observation (a step without one has not happened yet). */
export function completedSteps(trial: Pick<TrialView, "steps">): number {
  return trial.steps.filter((step) => step.observation !== null).length;
}

/**
 * The Actor step budget per trial, in steps: the strategy's fixed one (`cot`
 * variants: 1) or else the run's `maxStepsPerTrial`.
 */
export function stepBudget(config: Pick<RunConfig, "strategy" | "maxStepsPerTrial">): number {
  return strategyBehaviour(config.strategy).stepsPerTrial ?? config.maxStepsPerTrial;
}

/**
 * Where an open trial (no `trial-end` yet) stands:
 * - `finished`: the last observation ended the episode (`answer`: the submitted
 *   answer, if any); the Evaluator judges it next;
 * - `out-of-steps`: the budget (`budget` steps) is spent without finishing; the
 *   trial is evaluated as halted;
 * - `acting`: the Actor takes step `step` next, `completed` steps being done.
 *
 * The engine may still halt an `acting` trial early (a family's `earlyStop`).
 */
export type OpenTrialProgress =
  | { kind: "finished"; answer: string | null }
  | { kind: "out-of-steps"; budget: number }
  | { kind: "acting"; step: number; completed: number };

/** See {@link OpenTrialProgress}. */
export function openTrialProgress(trial: Pick<TrialView, "steps">, config: Pick<RunConfig, "strategy" | "maxStepsPerTrial">): OpenTrialProgress {
  const observation = trial.steps.at(-1)?.observation;
  if (observation?.done) return { kind: "finished", answer: observation.answer };
  const completed = completedSteps(trial);
  const budget = stepBudget(config);
  if (completed >= budget) return { kind: "out-of-steps", budget };
  return { kind: "acting", step: completed + 1, completed };
}

/**
 * Where the Actor acts next (trial and step, both 1-based): the next step of
 * the open trial while it is {@link OpenTrialProgress} `acting`; else step 1 of
 * the following trial (the open trial is evaluated first, or the last trial has
 * ended). After the run's last trial this is a place the run never reaches.
 * This is where a person's `action-edit` is placed.
 */
export function nextActorStep(state: Pick<RunState, "config" | "trials">): { trial: number; step: number } {
  const last = state.trials.at(-1);
  if (last && last.outcome === null && state.config) {
    const progress = openTrialProgress(last, state.config);
    if (progress.kind === "acting") return { trial: last.trial, step: progress.step };
  }
  return { trial: (last?.trial ?? 0) + 1, step: 1 };
}
