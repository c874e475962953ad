import type { TrajectoryStep } from "./environment";
import { budgetTokens } from "./tokenizer";
import { tokensForChars } from "./token-estimate";

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
 * A lower bound of a {@link TextMeasure} from a text's length alone: `measure(text) ≥ atLeast(text.length)`
 * for every text. Lets {@link truncateLongestObservations} skip measuring a rendering that cannot be
 * within the budget.
 */
export type MeasureFloor = (chars: number) => number;

/** {@link budgetTokens} is never less than `ceil(chars / 4)` (lib/domain/tokenizer.ts): its floor. */
export const budgetTokensFloor: MeasureFloor = tokensForChars;

/**
 * Shortens a trajectory the way the reference does before putting it in a
 * prompt: while `measure(render(steps))` is over `budget`, the longest
 * observation (the earliest one on a tie) is replaced by `placeholder`.
 * Observations no longer than the placeholder are never replaced, so the loop
 * always ends; if the text is still too long when nothing is left to shorten,
 * it is returned as it is (the reference pops from an empty list there,
 * pitfall 8). Pure: `steps` is not modified.
 *
 * Cost: O(steps) renders and at most a few full measurements when `render`
 * renders each step on its own (`render(steps)` equals the concatenation of
 * `render([step])`, as the QA and household scratchpads do; checked on the
 * input): the rendering is then kept per step and updated for the one step
 * replaced, and a rendering whose length alone puts it over the budget
 * (`atLeast`) is not measured. Otherwise the whole trajectory is rendered and
 * measured after each replacement (O(steps²)), as before. Either way the result
 * is the one the loop above gives (tests/domain/trajectory-budget.test.ts).
 *
 * @param measure - characters by default; pass {@link budgetTokens} for a budget in tokens.
 * @param atLeast - a lower bound of `measure` from the length ({@link MeasureFloor}); the default
 *   is exact for the character measure and 0 (no bound) for any other.
 * @returns the steps to render, with some observations replaced.
 */
export function truncateLongestObservations(
  steps: readonly TrajectoryStep[],
  render: (steps: readonly TrajectoryStep[]) => string,
  budget: number,
  placeholder: string,
  measure: TextMeasure = characters,
  atLeast: MeasureFloor = measure === characters ? (chars) => chars : () => 0,
): TrajectoryStep[] {
  const result = steps.map((step) => ({ ...step }));
  // Which observation goes next does not depend on any measurement: a replaced one is no longer
  // than the placeholder and the others are unchanged, so the order is fixed up front —
  // longest first, earliest on a tie, only those longer than the placeholder.
  const order = result
    .map((step, index) => ({ index, length: step.observation.length }))
    .filter((entry) => entry.length > placeholder.length)
    .sort((a, b) => b.length - a.length || a.index - b.index)
    .map((entry) => entry.index);
  const whole = render(result);
  const pieces = result.map((step) => render([step]));
  if (pieces.join("") !== whole) {
    // A render that is not per step: the whole trajectory after each replacement.
    for (let next = 0; measure(render(result)) > budget && next < order.length; next += 1) result[order[next]!]!.observation = placeholder;
    return result;
  }
  let length = whole.length;
  const over = (): boolean => atLeast(length) > budget || measure(pieces.join("")) > budget;
  for (let next = 0; next < order.length && over(); next += 1) {
    const index = order[next]!;
    result[index]!.observation = placeholder;
    const piece = render([result[index]!]);
    length += piece.length - pieces[index]!.length;
    pieces[index] = piece;
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
  return truncateLongestObservations(steps, render, LAST_ATTEMPT_TOKEN_BUDGET, placeholder, budgetTokens, budgetTokensFloor);
}
