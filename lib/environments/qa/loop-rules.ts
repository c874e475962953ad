/**
 * The loop rules that end a trial early, shared by the QA and household
 * families (docs/decisions/0014-action-readers-and-loops.md). They generalise
 * the paper's ALFWorld heuristic — "the same action with the same response for
 * more than 3 cycles" ends the trial so the Self-Reflection model can diagnose
 * it (shared/docs/reflexion-reference.md §3.5, [paper §4.1]) — to every family
 * and to short cycles:
 *
 * 1. **Repetition**: the last `repeatLimit` steps (default 3) have the same
 *    action and the same observation.
 * 2. **Cycle**: for a period p in `cyclePeriods` (default 2 and 3), the last 2p
 *    steps are the same p steps twice in a row — every one of them has the
 *    action and the observation of the step p before it — and those p actions
 *    are not all the same (that is rule 1). A, B, A, B with B's observation
 *    repeating B's and A's repeating A's halts after the fourth step.
 * 3. **Stall** (only for a family whose reading has `stallKey`): the last
 *    `repeatLimit` steps are the same kind of action (QA: the same verb) with
 *    different arguments and the same observation once the echoed argument is
 *    taken out — three failed Searches that all get `Similar: ['Indian folk
 *    music']` learn nothing new, though each observation names its own query.
 *
 * Actions compare by a family's key (case, spacing and trailing punctuation do
 * not matter); observations compare by the family's `observationKey` (QA: the
 * echoed query taken out of `Could not find [x]. Similar: [...]`), then with case
 * and runs of whitespace folded, but otherwise exactly, so an action whose
 * observation moves on (`Lookup[x]` giving the next result) is not a loop.
 * Repetition is checked first, then the stall, then cycles, shorter periods
 * before longer ones.
 *
 * Family-agnostic; it lives beside the QA reader and the household evaluator
 * uses it too.
 */

/** The paper's repetition limit: the same action and observation this many times in a row ends the trial. */
export const DEFAULT_REPEAT_LIMIT = 3;
/** The cycle periods checked by default: A, B, A, B and A, B, C, A, B, C. */
export const DEFAULT_CYCLE_PERIODS: readonly number[] = [2, 3];

/** A step as the loop rules see it. */
export interface LoopStep {
  actionText: string;
  observation: string;
}

/** Settings of the loop rules. */
export interface LoopRules {
  /** Halt when the last `repeatLimit` steps have the same action and the same observation (at least 2). */
  repeatLimit: number;
  /** Cycle periods to check (each at least 2); empty turns cycle detection off. */
  cyclePeriods: readonly number[];
}

/** The default rules: 3 repetitions; cycles of period 2 and 3. */
export const DEFAULT_LOOP_RULES: LoopRules = { repeatLimit: DEFAULT_REPEAT_LIMIT, cyclePeriods: DEFAULT_CYCLE_PERIODS };

/** How a family reads its actions for the loop rules. */
export interface ActionReading {
  /** The comparison key: equal keys are the same action. */
  key(actionText: string): string;
  /** How the action is quoted in the halt reason. */
  display(actionText: string): string;
  /**
   * The observation as the rules compare it, before case and whitespace are folded:
   * e.g. without the argument the environment echoed. Default: the observation itself.
   */
  observationKey?(actionText: string, observation: string): string;
  /**
   * The kind of action for the stall rule (QA: the verb), or null when the action takes
   * no part in it. Without this function the family has no stall rule.
   */
  stallKey?(actionText: string): string | null;
}

/** A loop found by {@link detectLoop}: its kind and the sentence recorded as the halt reason. */
export interface LoopHalt {
  kind: "repetition" | "stall" | "cycle";
  message: string;
}

/** Longest observation quoted in a halt reason; longer ones are cut with an ellipsis. */
const QUOTED_OBSERVATION_LIMIT = 100;

/** Lowercase, whitespace collapsed, trailing punctuation dropped: the key both families build on. */
export function foldActionText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/[\s.,;:!?]+$/u, "");
}

/** Case and runs of whitespace folded: how observations compare. */
function foldObservation(observation: string): string {
  return observation.toLowerCase().replace(/\s+/gu, " ").trim();
}

/** One line, trimmed, cut to {@link QUOTED_OBSERVATION_LIMIT} characters. */
function quoteObservation(observation: string): string {
  const line = observation.replace(/\s+/gu, " ").trim();
  return line.length <= QUOTED_OBSERVATION_LIMIT ? line : `${line.slice(0, QUOTED_OBSERVATION_LIMIT - 1).trimEnd()}…`;
}

/**
 * Applies the loop rules to the steps so far (oldest first). Pure; reads only
 * the last max(repeatLimit, 2 × the longest period) steps, so it finds the loop at the step it closes.
 */
export function detectLoop(allSteps: readonly LoopStep[], reading: ActionReading, rules: LoopRules = DEFAULT_LOOP_RULES): LoopHalt | null {
  const limit = Math.max(2, Math.floor(rules.repeatLimit));
  const periods = [...new Set(rules.cyclePeriods.map((p) => Math.floor(p)).filter((p) => p >= 2))].sort((a, b) => a - b);
  // Both rules compare only the last max(limit, 2 × period) steps: read those alone, so that the
  // check after each step costs the same however long the trial is (engine bench, per-event cost).
  const lookback = Math.max(limit, ...periods.map((period) => 2 * period));
  const steps = allSteps.length > lookback ? allSteps.slice(-lookback) : allSteps;
  const keys = steps.map((step) => reading.key(step.actionText));
  const observations = steps.map((step) => foldObservation(reading.observationKey?.(step.actionText, step.observation) ?? step.observation));
  const same = (i: number, j: number) => keys[i] === keys[j] && observations[i] === observations[j];
  const n = steps.length;

  if (n >= limit) {
    const first = n - limit;
    let repeated = true;
    for (let i = first + 1; i < n && repeated; i += 1) repeated = same(i, first);
    const step = steps[first];
    if (repeated && step !== undefined) {
      return {
        kind: "repetition",
        message: `The same action "${reading.display(step.actionText)}" gave the same observation "${quoteObservation(step.observation)}" ${limit} times in a row.`,
      };
    }
  }

  if (n >= limit && reading.stallKey !== undefined) {
    const first = n - limit;
    const window = steps.slice(first);
    const kind = reading.stallKey(window[0]!.actionText);
    let stalled = kind !== null;
    for (let i = first + 1; i < n && stalled; i += 1) stalled = reading.stallKey(steps[i]!.actionText) === kind && observations[i] === observations[first];
    if (stalled && kind !== null) {
      const actions = window.map((step) => `"${reading.display(step.actionText)}"`).join(", ");
      return {
        kind: "stall",
        message: `${limit} ${kind} actions in a row (${actions}) gave the same observation apart from the echoed argument: "${quoteObservation(window[limit - 1]!.observation)}".`,
      };
    }
  }

  for (const period of periods) {
    if (n < 2 * period) continue;
    const start = n - 2 * period;
    let cycle = true;
    for (let i = start + period; i < n && cycle; i += 1) cycle = same(i, i - period);
    if (!cycle) continue;
    const block = steps.slice(start, start + period);
    if (new Set(keys.slice(start, start + period)).size < 2) continue;
    const actions = block.map((step) => `"${reading.display(step.actionText)}"`).join(", ");
    return {
      kind: "cycle",
      message: `The actions ${actions} were repeated in the same order with the same observations: a cycle of ${period} steps, twice in a row.`,
    };
  }
  return null;
}
