import type { TrajectoryStep } from "./environment";
import { budgetTokens } from "./tokenizer";
import { budgetTokensFloor, truncateLongestObservations, type TextMeasure } from "./trajectory-budget";

/**
 * Context budgets of the prompts the engine builds (docs/decisions/0016):
 * long observations shortened in every prompt after the step that produced
 * them, the Self-Reflection input trimmed like the reference's, and the
 * tighter fit used once after a provider's context-length error. Pure
 * functions over {@link TrajectoryStep}s; the log always keeps the full text.
 */

/**
 * An observation over this many tokens ({@link budgetTokens}) is shortened in
 * later prompts. The reference's HotpotQA observations are a page's first
 * paragraph (LangChain's DocstoreExplorer, reflexion-reference.md §2.3) or
 * ReAct's first 5 sentences (§6) — a few hundred tokens, and HotpotQA's
 * paragraphs are shorter still; household observations are one or two
 * sentences. 500 tokens (~2,000 characters) leaves all of those whole and
 * cuts a whole article pasted into one observation (a real case: 21,969
 * characters, ~5,400 tokens) to its lead; `Lookup[keyword]` still reaches the rest.
 */
export const OBSERVATION_TOKEN_LIMIT = 500;

/**
 * The HotpotQA reference trims the Self-Reflection input (the failed trial's scratchpad) to this
 * many tokens (reference §2.6, pitfall 8): the QA family's `reflectionTokenBudget`
 * (EnvironmentFamily in ./environment.ts; the other families send the whole trial).
 */
export const REFLECTION_TOKEN_BUDGET = 1600;

/** Replaces an observation dropped whole to fit a budget (the reference writes `[truncated wikipedia excerpt]`). */
export const OMITTED_OBSERVATION = "[… observation omitted to fit the prompt budget; full text in the log]";

const number = (n: number) => n.toLocaleString("en-US");

/** The marker after a shortened observation's head: `[… observation shortened: 21,969 chars / ~5,400 tokens; full text in the log]`. */
export function shortenedMarker(chars: number, tokens: number): string {
  return `[… observation shortened: ${number(chars)} chars / ~${number(tokens)} tokens; full text in the log]`;
}

/** True when `text` carries a marker of {@link shortenedMarker} or is {@link OMITTED_OBSERVATION}. */
export function isShortened(text: string): boolean {
  return text === OMITTED_OBSERVATION || /\[… observation shortened: [\d,]+ chars \/ ~[\d,]+ tokens; full text in the log\]$/.test(text);
}

/** The longest prefix of `text` whose {@link budgetTokens} is at most `limit`, ended at a sentence or word boundary when one is near. */
function headWithin(text: string, limit: number): string {
  let low = 0;
  let high = Math.min(text.length, limit * 8);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (budgetTokens(text.slice(0, mid)) <= limit) low = mid;
    else high = mid - 1;
  }
  const head = text.slice(0, low);
  const sentence = Math.max(head.lastIndexOf(". "), head.lastIndexOf(".\n"));
  if (sentence >= head.length * 0.7) return head.slice(0, sentence + 1);
  const space = head.search(/\s\S*$/);
  return space >= head.length * 0.8 ? head.slice(0, space) : head;
}

const memo = new Map<string, string>();
const MEMO_SIZE = 512;

/**
 * `text` as later prompts show it: unchanged when it is at most `limit`
 * tokens; otherwise its first ≤ `limit` tokens (cut at a sentence or word end)
 * followed by {@link shortenedMarker} with the full length. Pure; results of
 * long texts are memoised (the same observation is in every later prompt).
 */
export function shortenObservation(text: string, limit = OBSERVATION_TOKEN_LIMIT): string {
  // A token is at least one character, so a text of `limit` characters or fewer is within the limit.
  if (text.length <= limit) return text;
  const key = `${limit}\u0000${text}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const tokens = budgetTokens(text);
  const result = tokens <= limit ? text : `${headWithin(text, limit).trimEnd()} ${shortenedMarker(text.length, tokens)}`;
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(key, result);
  return result;
}

/** The steps with every observation over `limit` tokens shortened ({@link shortenObservation}); the same array when none is. */
export function shortenLongObservations(steps: readonly TrajectoryStep[], limit = OBSERVATION_TOKEN_LIMIT): readonly TrajectoryStep[] {
  let changed = false;
  const out = steps.map((step) => {
    const observation = shortenObservation(step.observation, limit);
    if (observation === step.observation) return step;
    changed = true;
    return { ...step, observation };
  });
  return changed ? out : steps;
}

/**
 * The Self-Reflection input the way the reference trims it (§2.6): long
 * observations shortened, then, while the rendered trajectory is over
 * `budget` tokens, the longest observation replaced by {@link OMITTED_OBSERVATION}.
 * Thoughts and actions are never cut (nothing left to shorten: returned as is).
 * `budget` null: only the long observations are shortened (a family without a `reflectionTokenBudget`).
 */
export function fitReflectionInput(
  steps: readonly TrajectoryStep[],
  render: (steps: readonly TrajectoryStep[]) => string,
  budget: number | null = REFLECTION_TOKEN_BUDGET,
): readonly TrajectoryStep[] {
  const shortened = shortenLongObservations(steps);
  return budget === null ? shortened : truncateLongestObservations(shortened, render, budget, OMITTED_OBSERVATION, budgetTokens, budgetTokensFloor);
}

/** What {@link shrinkToFit} did. */
export interface ShrinkResult {
  steps: TrajectoryStep[];
  /** Observations replaced by {@link OMITTED_OBSERVATION}. */
  omittedObservations: number;
  /** Oldest steps left out. */
  droppedSteps: number;
  /** `measure(renderPrompt(steps))` at the end. */
  tokens: number;
  /** True when the prompt is within `target`. */
  fits: boolean;
}

/**
 * Shrinks the trajectory part of a prompt until the whole prompt,
 * `renderPrompt(steps)`, is at most `target` tokens by `measure`: first the
 * longest observations are replaced by {@link OMITTED_OBSERVATION} (longest
 * first), then the oldest steps are left out, the first one kept saying how
 * many (`[steps 1–3 left out to fit the context window] …` before its
 * thought). Everything `renderPrompt` adds around the steps — the task or
 * question, the memory, the examples — is never touched, so the result may
 * still not fit (`fits: false`). Never throws for any steps; pure.
 */
export function shrinkToFit(
  steps: readonly TrajectoryStep[],
  renderPrompt: (steps: readonly TrajectoryStep[]) => string,
  target: number,
  measure: TextMeasure,
): ShrinkResult {
  let kept = steps.map((step) => ({ ...step }));
  let omittedObservations = 0;
  let droppedSteps = 0;
  const withNote = (): TrajectoryStep[] => {
    if (droppedSteps === 0 || kept.length === 0) return kept;
    const from = steps[0]!.step;
    const to = steps[droppedSteps - 1]!.step;
    const note = `[${from === to ? `step ${from}` : `steps ${from}–${to}`} left out to fit the context window]`;
    return [{ ...kept[0]!, thought: `${note} ${kept[0]!.thought}`.trim() }, ...kept.slice(1)];
  };
  const render = () => renderPrompt(withNote());
  let tokens = measure(render());
  while (tokens > target) {
    let longest: TrajectoryStep | null = null;
    for (const step of kept) {
      if (step.observation.length > OMITTED_OBSERVATION.length && (longest === null || step.observation.length > longest.observation.length)) longest = step;
    }
    if (longest !== null) {
      longest.observation = OMITTED_OBSERVATION;
      omittedObservations += 1;
    } else if (kept.length > 0) {
      kept = kept.slice(1);
      droppedSteps += 1;
    } else {
      break;
    }
    tokens = measure(render());
  }
  return { steps: withNote(), omittedObservations, droppedSteps, tokens, fits: tokens <= target };
}
