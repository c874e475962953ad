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
 * Normalises an answer as the official HotpotQA/SQuAD script's `normalize_answer`,
 * in its order, after one step of ours: Unicode NFC (so a decomposed "Zu\u0308rich"
 * and a precomposed "Z\u00fcrich", which look identical, normalise alike) → lowercase
 * → remove every ASCII punctuation character (Unicode quotes and dashes stay) →
 * replace whole words a/an/the with a space → split on whitespace and join with
 * single spaces.
 *
 * Source: HotpotQA `hotpot_evaluate_v1.py` `normalize_answer`, which does not apply
 * NFC; on the paper's 3,396 logged (prediction, gold) pairs the two agree on every
 * one (`npm run agreement:qa`). JS `toLowerCase` stands in for Python's `str.lower`
 * (they agree outside rare special casings).
 *
 * @example normalizeAnswer('Jonny" Craig') === "jonny craig"
 * @example normalizeAnswer("The \u00c1lvaro") === "\u00e1lvaro"
 */
export function normalizeAnswer(text: string): string {
  return collapseWhitespace(stripPunctuation(text).replace(articles, " "));
}

/** NFC, lowercase, ASCII punctuation removed: the official steps before the articles. */
function stripPunctuation(text: string): string {
  return text.normalize("NFC").toLowerCase().replace(punctuation, "");
}

/** Python's `" ".join(text.split())`. */
function collapseWhitespace(text: string): string {
  return text
    .split(pythonWhitespace)
    .filter((token) => token !== "")
    .join(" ");
}

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
