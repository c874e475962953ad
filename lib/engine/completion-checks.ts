import type { MemoryItem } from "@/lib/domain/events";
import { ModelCallError, type ModelResponse } from "./ports";

/**
 * Completions that are not the agent's fault: an
 * empty or whitespace-only completion, one the provider's content filter
 * stopped, or one cut off by the token limit before it held a usable action.
 * The engine asks again (bounded) and, if it stays bad, records the call as
 * errored and pauses the run — never a failed trial, never reflected on.
 */

/** Attempts per model call before a bad completion is given up on (the first one included). */
export const MAX_COMPLETION_ATTEMPTS = 3;

/** Why a completion cannot be used; null when it can. */
export type CompletionProblem = { code: "empty-completion" | "content-filtered" | "truncated"; message: string } | null;

/**
 * Judges a completion. `usable(text)` says whether a truncated completion
 * still holds what the role needs (the Actor: an action that parses); a
 * truncated but usable one is accepted (and marked truncated by the caller).
 */
export function completionProblem(response: Pick<ModelResponse, "text" | "finishReason">, usable: (text: string) => boolean): CompletionProblem {
  if (response.finishReason === "content-filter") {
    return { code: "content-filtered", message: "the provider's content filter stopped the completion" };
  }
  if (response.text.trim() === "") {
    return response.finishReason === "length"
      ? { code: "truncated", message: "the completion was cut off by the token limit before it said anything" }
      : { code: "empty-completion", message: "the completion was empty" };
  }
  if (response.finishReason === "length" && !usable(response.text)) {
    return { code: "truncated", message: "the completion was cut off by the token limit (finish reason: length) before it gave a usable answer" };
  }
  return null;
}

/** The error recorded when every attempt was bad: retryable, and it says what to do. */
export function badCompletionError(problem: NonNullable<CompletionProblem>, attempts: number, modelId: string): ModelCallError {
  const advice =
    problem.code === "truncated"
      ? "Raise the role's max output tokens in the Steer tab (or pick another model), then resume the run."
      : "Resume the run to ask again, or pick another model in the Steer tab.";
  return new ModelCallError(`${modelId}: ${problem.message} (${attempts} attempts); this is not counted as a failed trial. ${advice}`, {
    code: problem.code,
    retryable: true,
    attempts,
  });
}

/** Lower-cased letters and digits only: what two reflections are compared by. */
function normalized(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/**
 * Fewer words than this (words with a letter, see {@link lessonWordCount}) and a
 * Self-Reflection is no lesson: "925", "Try again.", "Search first." say neither
 * what went wrong nor what to do. The paper's own reflections (5,791 in
 * shared/data/reflexion: ALFWorld, WebShop, HotpotQA, HumanEval, MBPP, Rust) have
 * 23 such words or more, so the bar is far below any real one; a terse real plan
 * ("Find the lamp first.") passes.
 */
export const MIN_LESSON_WORDS = 4;

const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });
const letter = /\p{L}/u;

/**
 * Words that hold at least one letter, by Unicode word segmentation (`Intl.Segmenter`,
 * so a script written without spaces, such as Chinese, counts its words too);
 * numbers and symbols alone are not words here. Counting stops at `cap`.
 */
export function lessonWordCount(text: string, cap = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (const segment of wordSegmenter.segment(text)) {
    if (segment.isWordLike && letter.test(segment.segment)) count += 1;
    if (count >= cap) break;
  }
  return count;
}

/** Why a reflection is not a lesson by the word rule, or null. */
function notALesson(text: string): string | null {
  const count = lessonWordCount(text, MIN_LESSON_WORDS);
  if (count >= MIN_LESSON_WORDS) return null;
  const what = count === 0 ? "it has no words, only numbers or symbols" : `${count} ${count === 1 ? "word" : "words"}, fewer than ${MIN_LESSON_WORDS}`;
  return `the reflection is not a lesson: ${what}; a lesson names what went wrong and what to do next`;
}

/**
 * Checks a Self-Reflection before it enters the episodic memory, in this order:
 * empty or markup only (e.g. three backticks), a copy of the trial's answer, not a
 * lesson (fewer than {@link MIN_LESSON_WORDS} words with a letter: "925"), or a
 * duplicate of a reflection already in memory. Returns what is wrong, or null.
 * The engine asks the Self-Reflection model once more, then keeps a reflection that
 * is still wrong with this text as its `warning` (`reflection-end`), which the run
 * graph and the memory panel show so the user can edit or delete it.
 */
export function reflectionProblem(text: string, context: { answer: string | null; memory: readonly MemoryItem[] }): string | null {
  const words = normalized(text);
  if (words === "") return "the reflection is empty or markup only";
  if (context.answer !== null && words === normalized(context.answer)) return "the reflection only repeats the trial's answer";
  const short = notALesson(text);
  if (short !== null) return short;
  if (context.memory.some((item) => normalized(item.text) === words)) return "the reflection repeats one already in memory";
  return null;
}
