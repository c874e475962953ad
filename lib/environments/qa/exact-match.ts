import type { Verdict } from "@/lib/domain/environment";
import { f1FromNormalized } from "./f1";
import type { QaTask } from "./task";

/**
 * Exact match (EM), the QA family's evaluator. Normalisation follows the
 * official HotpotQA evaluation script's `normalize_answer` (itself the SQuAD v1.1
 * script's), which Reflexion and ReAct reuse unchanged
 * (shared/docs/reflexion-reference.md §2.4, §11 item 5). EM uses the gold answer,
 * so it is an oracle signal, not self-evaluation (§11 item 19).
 */

/** Python's `string.punctuation`: the 32 ASCII punctuation characters. */
export const ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

const punctuation = new RegExp(`[${ASCII_PUNCTUATION.replace(/[\\\]^-]/g, "\\$&")}]`, "g");

/**
 * Whole-word `a` / `an` / `the`: Python 3's `re.sub(r'\b(a|an|the)\b', ' ', text)`
 * on a `str`, whose `\b` is Unicode-aware. Python's word characters are Unicode
 * letters, numbers and `_` (combining marks are not), hence explicit lookarounds
 * instead of JS's ASCII-only `\b`.
 */
const articles = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/**
 * The characters Python's `str.split()` splits on (`str.isspace`). Unlike JS `\s`,
 * it includes U+001C–U+001F and U+0085 and excludes U+FEFF.
 */
const pythonWhitespace = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;

/**
 * Normalises an answer exactly as the official HotpotQA/SQuAD script's
 * `normalize_answer`, in its order: lowercase → remove every ASCII punctuation
 * character (Unicode quotes and dashes stay) → replace whole words a/an/the with
 * a space → split on whitespace and join with single spaces.
 *
 * Source: HotpotQA `hotpot_evaluate_v1.py` `normalize_answer`. JS `toLowerCase`
 * stands in for Python's `str.lower` (they agree outside rare special casings).
 *
 * @example normalizeAnswer('Jonny" Craig') === "jonny craig"
 * @example normalizeAnswer("The Álvaro") === "álvaro"
 */
export function normalizeAnswer(text: string): string {
  const lowered = text.toLowerCase();
  const withoutPunctuation = lowered.replace(punctuation, "");
  const withoutArticles = withoutPunctuation.replace(articles, " ");
  return withoutArticles
    .split(pythonWhitespace)
    .filter((token) => token !== "")
    .join(" ");
}

/**
 * True when the normalised prediction equals the normalised gold answer. A
 * prediction that is empty after normalisation (e.g. `""`, `"the"`, `"?!"`) is never
 * correct, even against an empty gold answer (the reference would count that).
 */
export function exactMatch(prediction: string, gold: string): boolean {
  const normalized = normalizeAnswer(prediction);
  return normalized !== "" && normalized === normalizeAnswer(gold);
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
 *   there was no answer; F1/precision/recall in [0, 1] as `hotpot_evaluate_v1.py`
 *   computes them, 0 without an answer — reported only, the verdict stays EM). The
 *   feedback never reveals the gold answer, because the Self-Reflection model reads it.
 */
export function evaluateQa(task: QaTask, answer: string | null): Verdict {
  const normalizedGold = normalizeAnswer(task.answer);
  if (answer === null) {
    return {
      verdict: "fail",
      score: 0,
      feedback: NO_ANSWER_FEEDBACK,
      evaluatorKind: "exact-match",
      oracle: true,
      details: { prediction: null, normalizedPrediction: null, normalizedGold, f1: 0, precision: 0, recall: 0 },
    };
  }
  const normalizedPrediction = normalizeAnswer(answer);
  const correct = normalizedPrediction !== "" && normalizedPrediction === normalizedGold;
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
