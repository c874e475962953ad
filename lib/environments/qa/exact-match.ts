import type { Verdict } from "@/lib/domain/environment";
import { f1FromNormalized } from "./f1";
import { collapseWhitespace, normalizeAnswer, stripPunctuation } from "./normalize-answer";
import type { QaTask } from "./task";

/**
 * Exact match (EM), the QA family's evaluator. Normalisation follows the
 * official HotpotQA evaluation script's `normalize_answer` (itself the SQuAD v1.1
 * script's), which Reflexion and ReAct reuse unchanged
 * (shared/docs/reflexion-reference.md §2.4, §11 item 5). EM uses the gold answer,
 * so it is an oracle signal, not self-evaluation (§11 item 19).
 */

export { ASCII_PUNCTUATION, normalizeAnswer } from "./normalize-answer";

/** The two strings an EM verdict compared: see {@link compareAnswers}. */
export interface ComparedAnswers {
  correct: boolean;
  /** The prediction as compared (normally {@link normalizeAnswer}'s result). */
  normalizedPrediction: string;
  /** The gold answer as compared (normally {@link normalizeAnswer}'s result). */
  normalizedGold: string;
}

/**
 * Compares a prediction with a gold answer by exact match and returns what was
 * compared.
 *
 * Normally both go through {@link normalizeAnswer} and must be equal and non-empty.
 * A gold answer made only of articles and punctuation ("A", "The The", "?!")
 * normalises to nothing, and the official script would then count ANY prediction
 * that also normalises to nothing ("the", "", "?") as correct, so "The" would match
 * gold "A" while no prediction could be told right from wrong. For such a gold
 * answer both sides are compared with fewer steps instead: NFC, lowercase, ASCII
 * punctuation removed and whitespace collapsed, without the article step (so "a."
 * matches gold "A", "the the" matches "The The", "The" does not match "A"); a gold
 * answer that is empty even then (only punctuation, "?!") is compared NFC-lowercased
 * with whitespace collapsed. An empty compared prediction is never correct (decision
 * 0004), unlike the official script, which counts `""` equal to an empty gold.
 */
export function compareAnswers(prediction: string, gold: string): ComparedAnswers {
  let key: (text: string) => string = normalizeAnswer;
  if (normalizeAnswer(gold) === "") {
    key = (text) => collapseWhitespace(stripPunctuation(text));
    if (key(gold) === "") key = (text) => collapseWhitespace(text.normalize("NFC").toLowerCase());
  }
  const normalizedPrediction = key(prediction);
  const normalizedGold = key(gold);
  return { correct: normalizedPrediction !== "" && normalizedPrediction === normalizedGold, normalizedPrediction, normalizedGold };
}

/**
 * True when the prediction matches the gold answer by exact match
 * ({@link compareAnswers}: the official normalisation plus NFC, with a fallback for
 * a gold answer that normalises to nothing). A prediction that is empty after
 * normalisation (e.g. `""`, `"the"`, `"?!"`) is never correct, even against an
 * empty gold answer (the reference would count that).
 */
export function exactMatch(prediction: string, gold: string): boolean {
  return compareAnswers(prediction, gold).correct;
}

/** Feedback when the trial ended without `Finish[...]` (halted). */
export const NO_ANSWER_FEEDBACK = "No answer: the trial ended without Finish[...]";

/** Feedback for a wrong answer. It names the prediction, never the gold answer. */
export function mismatchFeedback(answer: string): string {
  return `Answer "${answer}" does not match the gold answer by exact match.`;
}

/**
 * Judges a QA trial by exact match against `task.answer`.
 *
 * @param answer the `Finish[...]` argument, or null when the trial halted without one.
 * @returns a {@link Verdict}: `pass`/1 or `fail`/0, `evaluatorKind: "exact-match"`,
 *   `oracle: true`, and `details: { prediction, normalizedPrediction, normalizedGold,
 *   f1, precision, recall }` (`prediction` and `normalizedPrediction` are null when
 *   there was no answer; the normalised strings are the ones compared, see
 *   {@link compareAnswers}; F1/precision/recall in [0, 1] as `hotpot_evaluate_v1.py`
 *   computes them over those strings, 0 without an answer — reported only, the
 *   verdict stays EM). The
 *   feedback never reveals the gold answer, because the Self-Reflection model reads it.
 */
export function evaluateQa(task: QaTask, answer: string | null): Verdict {
  if (answer === null) {
    const { normalizedGold } = compareAnswers("", task.answer);
    return {
      verdict: "fail",
      score: 0,
      feedback: NO_ANSWER_FEEDBACK,
      evaluatorKind: "exact-match",
      oracle: true,
      details: { prediction: null, normalizedPrediction: null, normalizedGold, f1: 0, precision: 0, recall: 0 },
    };
  }
  const { correct, normalizedPrediction, normalizedGold } = compareAnswers(answer, task.answer);
  let feedback: string;
  if (correct) feedback = `Answer "${answer}" matches the gold answer by exact match.`;
  else if (normalizedPrediction === "") feedback = `Answer "${answer}" is empty after normalisation, so it cannot match the gold answer.`;
  else feedback = mismatchFeedback(answer);
  return {
    verdict: correct ? "pass" : "fail",
    score: correct ? 1 : 0,
    feedback,
    evaluatorKind: "exact-match",
    oracle: true,
    details: { prediction: answer, normalizedPrediction, normalizedGold, ...f1FromNormalized(normalizedPrediction, normalizedGold) },
  };
}
