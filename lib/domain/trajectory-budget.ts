import type { TrajectoryStep } from "./environment";

/**
 * Budget for the previous trial's trajectory in the Actor prompt under
 * `last-attempt` and `last-attempt-and-reflexion`, in characters of the
 * rendered trajectory. The reference caps the previous scratchpad at 1600
 * tokens (shared/docs/reflexion-reference.md §2.6, pitfall 8); we count
 * characters instead of tokens so no tokenizer is needed, at the usual
 * ~4 characters per English token: 1600 × 4 = 6400.
 */
export const LAST_ATTEMPT_CHAR_BUDGET = 6400;

/**
 * Shortens a trajectory the way the reference does before putting it in a
 * prompt: while `render(steps)` is longer than `budget` characters, the
 * longest observation (the earliest one on a tie) is replaced by
 * `placeholder`. Observations no longer than the placeholder are never
 * replaced, so the loop always ends; if the text is still too long when
 * nothing is left to shorten, it is returned as it is (the reference pops
 * from an empty list there, pitfall 8). Pure: `steps` is not modified.
 *
 * @returns the steps to render, with some observations replaced.
 */
export function truncateLongestObservations(
  steps: readonly TrajectoryStep[],
  render: (steps: readonly TrajectoryStep[]) => string,
  budget: number,
  placeholder: string,
): TrajectoryStep[] {
  const result = steps.map((step) => ({ ...step }));
  while (render(result).length > budget) {
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
