import { stringSimilarity } from "string-similarity-js";
import { z } from "zod";

/**
 * Adaptive trials (docs/decisions/0024-costs-budgets-memory.md):
 * optional per run or experiment arm, checked after a trial's reflection, before
 * the next trial would start. The run then ends (outcome `failure`) with a
 * recorded `run-end.stopReason`:
 *
 * - `reflections-repeat`: the last `repeatWindow` (k ≥ 2) reflections are
 *   near-duplicates of each other — every pair's similarity is at least
 *   `similarityThreshold`. Similarity is the Sørensen–Dice coefficient over
 *   character bigrams (`string-similarity-js`), case-insensitive, on the
 *   whitespace-normalised texts: 1 = the same bigrams, 0 = none shared. The
 *   default threshold 0.85 treats a reflection that only swaps a word or two
 *   of a 20-word lesson as the same lesson; two lessons about different
 *   mistakes score well below 0.6. When the Self-Reflection keeps writing the
 *   same lesson, another trial is unlikely to go differently (the paper's
 *   §5 "Limitations": Reflexion can get stuck in a local minimum).
 * - `task-cost-ceiling`: the run has spent at least `taskCostCeilingUsd` USD
 *   (recorded `costUsd` of its live calls). Unlike a budget, a ceiling ends the
 *   task: the next trial is not worth its price.
 */
export const adaptiveTrialsSchema = z
  .object({
    /** k: how many of the newest reflections must repeat each other; absent = no repeat check. */
    repeatWindow: z.number().int().min(2).max(10).optional(),
    /** Pairwise Dice similarity (0–1) at or above which two reflections count as the same. */
    similarityThreshold: z.number().min(0).max(1).default(0.85),
    /** USD spent on the task after which no further trial starts; absent = no ceiling. */
    taskCostCeilingUsd: z.number().positive().optional(),
  })
  .refine((value) => value.repeatWindow !== undefined || value.taskCostCeilingUsd !== undefined, {
    message: "adaptive trials need repeatWindow (k ≥ 2) or taskCostCeilingUsd (or pass null for none)",
  });
export type AdaptiveTrials = z.infer<typeof adaptiveTrialsSchema>;

/** Why a run stopped before its trial budget. */
export const stopReasonSchema = z.enum(["reflections-repeat", "task-cost-ceiling", "tree-exhausted"]);
export type StopReason = z.infer<typeof stopReasonSchema>;

/** Dice similarity (0–1) of two reflections after whitespace normalisation, case-insensitive. */
export function reflectionSimilarity(a: string, b: string): number {
  const norm = (text: string) => text.replace(/\s+/g, " ").trim();
  const left = norm(a);
  const right = norm(b);
  if (left === right) return 1;
  return stringSimilarity(left, right, 2, false);
}

/**
 * Whether to stop before the next trial, and why (`detail` for people), or null
 * to go on. `reflections`: the reflection texts of the trials so far, oldest
 * first (as written or edited); `spentUsd`: USD of the run's live calls.
 */
export function adaptiveStop(
  settings: AdaptiveTrials | null | undefined,
  facts: { reflections: readonly string[]; spentUsd: number },
): { reason: StopReason; detail: string } | null {
  if (!settings) return null;
  const k = settings.repeatWindow;
  if (k !== undefined && facts.reflections.length >= k) {
    const last = facts.reflections.slice(-k);
    let lowest = 1;
    for (let i = 0; i < last.length; i += 1) {
      for (let j = i + 1; j < last.length; j += 1) lowest = Math.min(lowest, reflectionSimilarity(last[i] ?? "", last[j] ?? ""));
    }
    if (lowest >= settings.similarityThreshold) {
      return {
        reason: "reflections-repeat",
        detail: `The last ${k} reflections repeat each other (lowest pairwise similarity ${lowest.toFixed(2)} ≥ ${settings.similarityThreshold}); another trial is unlikely to differ.`,
      };
    }
  }
  const ceiling = settings.taskCostCeilingUsd;
  if (ceiling !== undefined && facts.spentUsd >= ceiling) {
    return { reason: "task-cost-ceiling", detail: `The task's cost ceiling is reached: $${facts.spentUsd.toPrecision(3)} spent of $${ceiling}.` };
  }
  return null;
}
