import type { TrajectoryStep } from "./environment";
import { budgetTokens } from "./tokenizer";

/**
 * Budget for the previous trial's trajectory in the Actor prompt under
 * `last-attempt` and `last-attempt-and-reflexion`, in tokens of the rendered
 * trajectory as {@link budgetTokens} counts them: the reference caps the
 * previous scratchpad at 1600 tokens (shared/docs/reflexion-reference.md §2.6,
 * pitfall 8; tiktoken there, `gpt-tokenizer`'s o200k_base here, never less
 * than chars / 4).
 */
export const LAST_ATTEMPT_TOKEN_BUDGET = 1600;

/**
 * The same budget in characters, at ~4 characters per English token
 * (1600 × 4). Kept for callers that measure characters
 * ({@link truncateLongestObservations} without a `measure`); the families use
 * {@link LAST_ATTEMPT_TOKEN_BUDGET}.
 */
export const LAST_ATTEMPT_CHAR_BUDGET = 6400;

/** Measures a rendered text for a budget: characters (the default) or tokens ({@link budgetTokens}). */
export type TextMeasure = (text: string) => number;

const characters: TextMeasure = (text) => text.length;

/**
 * Shortens a trajectory the way the reference does before putting it in a
 * prompt: while `measure(render(steps))` is over `budget`, the longest
 * observation (the earliest one on a tie) is replaced by `placeholder`.
 * Observations no longer than the placeholder are never replaced, so the loop
 * always ends; if the text is still too long when nothing is left to shorten,
 * it is returned as it is (the reference pops from an empty list there,
 * pitfall 8). Pure: `steps` is not modified.
 *
 * @param measure - characters by default; pass {@link budgetTokens} for a budget in tokens.
 * @returns the steps to render, with some observations replaced.
 */
export function truncateLongestObservations(
  steps: readonly TrajectoryStep[],
  render: (steps: readonly TrajectoryStep[]) => string,
  budget: number,
  placeholder: string,
  measure: TextMeasure = characters,
): TrajectoryStep[] {
  const result = steps.map((step) => ({ ...step }));
  while (measure(render(result)) > budget) {
    let longest: TrajectoryStep | null = null;
    for (const step of result) {
      if (step.observation.length > placeholder.length && (longest === null || step.observation.length > longest.observation.length)) {
        longest = step;
      }
    }
    if (longest === null) break;
    longest.observation = placeholder;
  }
  return result;
}

/**
 * {@link truncateLongestObservations} to {@link LAST_ATTEMPT_TOKEN_BUDGET}
 * tokens ({@link budgetTokens}): what the families' `renderLastAttempt` use.
 */
export function fitLastAttempt(
  steps: readonly TrajectoryStep[],
  render: (steps: readonly TrajectoryStep[]) => string,
  placeholder: string,
): TrajectoryStep[] {
  return truncateLongestObservations(steps, render, LAST_ATTEMPT_TOKEN_BUDGET, placeholder, budgetTokens);
}
