import { normalizeAnswer } from "./normalize-answer";

/**
 * Token-level F1, precision and recall of a QA answer, computed as the official
 * HotpotQA evaluation script `hotpot_evaluate_v1.py` (`f1_score`) computes them —
 * the figures researchers quote next to EM (shared/docs/reflexion-reference.md
 * §2.4; decision 0020). Reflexion rewards only EM; F1 is reported, never a
 * verdict.
 *
 * The official steps, in order:
 * 1. normalise both answers with `normalize_answer` ({@link normalizeAnswer});
 * 2. if either normalised answer is `yes`, `no` or `noanswer` and the two differ,
 *    the result is (0, 0, 0);
 * 3. split both on whitespace into tokens; the overlap is the multiset
 *    intersection (`Counter(p) & Counter(g)`: each token counts min(times in p,
 *    times in g));
 * 4. no overlap → (0, 0, 0); else precision = overlap / |p|, recall = overlap / |g|,
 *    F1 = 2·precision·recall / (precision + recall), in that floating-point order.
 * Unlike our EM (decision 0004), F1 needs no rule for empty answers: an empty
 * prediction has no tokens, so no overlap, so 0 — exactly as the official script.
 */

/** F1, precision and recall, each in [0, 1]. */
export interface F1Scores {
  f1: number;
  precision: number;
  recall: number;
}

/** The answers for which the official script's special case applies (compared after normalisation). */
export const SPECIAL_ANSWERS: readonly string[] = ["yes", "no", "noanswer"];

const ZERO: F1Scores = { f1: 0, precision: 0, recall: 0 };

/** Tokens of a normalised answer (Python `str.split()` on the single-space-joined text). */
function tokens(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}

/** Multiset counts of the tokens (Python `collections.Counter`). */
function countTokens(list: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of list) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/**
 * F1 / precision / recall from already-normalised answers (as returned by
 * {@link normalizeAnswer}); see the module comment for the official steps.
 *
 * @example f1FromNormalized("barack obama", "obama") → { f1: 2/3, precision: 0.5, recall: 1 }
 */
export function f1FromNormalized(normalizedPrediction: string, normalizedGold: string): F1Scores {
  const special = (answer: string) => SPECIAL_ANSWERS.includes(answer);
  if ((special(normalizedPrediction) || special(normalizedGold)) && normalizedPrediction !== normalizedGold) return { ...ZERO };
  const predictionTokens = tokens(normalizedPrediction);
  const goldTokens = tokens(normalizedGold);
  const goldCounts = countTokens(goldTokens);
  let same = 0;
  for (const [token, count] of countTokens(predictionTokens)) same += Math.min(count, goldCounts.get(token) ?? 0);
  if (same === 0) return { ...ZERO };
  const precision = (1.0 * same) / predictionTokens.length;
  const recall = (1.0 * same) / goldTokens.length;
  const f1 = (2 * precision * recall) / (precision + recall);
  return { f1, precision, recall };
}

/**
 * Official HotpotQA `f1_score(prediction, ground_truth)`: both answers are
 * normalised first.
 *
 * @param prediction the model's answer as written (`Finish[...]` argument).
 * @param gold the gold answer as stored.
 * @returns `{ f1, precision, recall }`, each in [0, 1].
 * @example f1Score("The Barack Obama", "Obama") → { f1: 0.666…, precision: 0.5, recall: 1 }
 * @example f1Score("no", "No.") → { f1: 1, precision: 1, recall: 1 }
 * @example f1Score("yes", "yes it is") → { f1: 0, precision: 0, recall: 0 } (special case)
 */
export function f1Score(prediction: string, gold: string): F1Scores {
  return f1FromNormalized(normalizeAnswer(prediction), normalizeAnswer(gold));
}
