import { seededUnit } from "./stats/string-seed";

/**
 * The demo model's seeded variation (docs/decisions/0031): without a seed the demo model is a pure
 * function of the prompt, as always; with one (an experiment with repeats sends repetition r the seed
 * r − 1, lib/domain/experiment-cells.ts) its Actor's choice between the naive and the informed path
 * is drawn, deterministically from the seed, the task and the memory it sees:
 * - a right first answer without the lesson, with chance {@link DEMO_LUCKY_CHANCE};
 * - the lesson in its memory missed in a trial, with chance {@link DEMO_MISS_CHANCE} (a weaker
 *   reflection's effect), drawn afresh each trial since the memory grows.
 * So repetitions show real spread offline, while the same seed and prompt always give the same text
 * (a resumed or replayed repetition stays exact). Labelled wherever the demo model is named.
 */

/** Chance of a right answer without the lesson. */
export const DEMO_LUCKY_CHANCE = 1 / 6;
/** Chance, per trial, that the Actor does not act on the lesson in its memory. */
export const DEMO_MISS_CHANCE = 1 / 3;

/** The label shown next to the demo model when its runs are seeded. */
export const DEMO_VARIATION_NOTE = "seeded per repetition: a 1-in-6 chance of a right first answer and a 1-in-3 chance per trial of missing the lesson in memory (QA tasks)";

/**
 * Whether the seeded demo Actor takes the informed path. With no seed, `informed` as is.
 * @param key what the draw depends on besides the seed: the task's question and the memory block.
 */
export function seededInformed(seed: number | undefined, key: string, informed: boolean): boolean {
  if (seed === undefined) return informed;
  return informed ? seededUnit(seed, `miss\u0000${key}`) >= DEMO_MISS_CHANCE : seededUnit(seed, `lucky\u0000${key}`) < DEMO_LUCKY_CHANCE;
}

/**
 * Chance that the demo Actor acts on a carried-in ExpeL insight of its task's kind when its memory
 * lacks the task's own lesson (lib/environments/qa/demo-insights.ts): a general rule helps on some
 * new tasks, not all, and never as surely as the task's own reflection.
 */
export const DEMO_INSIGHT_CHANCE = 1 / 3;

/**
 * Whether the demo Actor acts on a carried-in insight of the right kind: drawn from the seed (0 when
 * none is sent, so an unseeded run stays a pure function of its prompt), the task and the memory block.
 */
export function seededInsightHelps(seed: number | undefined, key: string): boolean {
  return seededUnit(seed ?? 0, `insight\u0000${key}`) < DEMO_INSIGHT_CHANCE;
}
