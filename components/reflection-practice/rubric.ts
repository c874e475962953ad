import { helpsWith, matchesPhrasing, normaliseForFacts, type KeyFact, type ReflectionHelpsResult } from "@/lib/domain/key-facts";
import type { TrialView } from "@/lib/domain/fold-run";
import { concreteAction } from "./concrete-plan";

/**
 * The short rubric "write your own reflection" shows beside the model's
 * reflection. Computed from the text alone, no model:
 * - names the mistake: mentions what went wrong in the trial (the wrong answer,
 *   the failed or repeated action, the wrong output) — {@link mistakeCandidates};
 * - says what to do instead: a key fact of the task (not one it states only by
 *   naming the mistake, such as the wrong answer), or a plan that names a
 *   concrete action — an action verb with its object ("search the town's page",
 *   "look up the river", "check the tests", `Search[…]`) in a sentence that says
 *   what to do ({@link concreteAction}); "think harder before answering" or
 *   "I should be more careful" is no plan;
 * - short enough for memory: {@link MIN_WORDS}–{@link MAX_WORDS} words (the
 *   paper's reflections are two to four sentences, and Ω of them share the
 *   Actor's prompt);
 * - would help the demo model: the task's key facts matched as the demo model
 *   matches them ({@link helpsWith}; lib/environments/demo-key-facts.ts
 *   `reflectionHelps` on the server), with the facts it states or misses.
 */

/** Fewer words than this cannot name a mistake and a plan. */
export const MIN_WORDS = 8;
/** More than this crowds the Actor's prompt (about the longest scripted reflection, a household one). */
export const MAX_WORDS = 120;

/** The practice box takes at most this many characters (a reflection is two to four sentences; {@link MAX_WORDS} words fit easily). */
export const PRACTICE_MAX_CHARS = 2000;

/** The practice box's counter: "123 / 2,000 characters", and "(the limit)" once it is reached. */
export function practiceCharCount(length: number): string {
  const count = `${length.toLocaleString("en-US")} / ${PRACTICE_MAX_CHARS.toLocaleString("en-US")} characters`;
  return length >= PRACTICE_MAX_CHARS ? `${count} (the limit)` : count;
}

/** What the learner's text mentions of the trial's mistake. */
export interface MistakeCheck {
  ok: boolean;
  /** The candidates (as shown in the trial) the text mentions. */
  mentioned: string[];
  /** Every candidate looked for. */
  candidates: string[];
}

/** The whole rubric. */
export interface ReflectionRubric {
  namesMistake: MistakeCheck;
  /** `action`: the concrete action the plan names ("search town"), null when it names none (a key fact alone may still make it ok). */
  saysInstead: { ok: boolean; action: string | null };
  length: { ok: boolean; words: number; min: number; max: number };
  helps: ReflectionHelpsResult;
}

const SHORT_OR_COMMON = new Set(["from", "with", "into", "onto", "the", "and", "for", "that", "this", "what", "which", "assert", "true", "false", "none", "null"]);

/** The words of a candidate that must all appear (stemmed), ignoring digits, very short and very common words. */
function contentWords(candidate: string): string[] {
  return normaliseForFacts(candidate).filter((word) => word.length >= 3 && !/^\d+$/.test(word) && !SHORT_OR_COMMON.has(word));
}

/** Distinct non-empty strings, first occurrence kept. */
function unique(values: readonly string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ""))];
}

/**
 * What a reflection on this trial could name as the mistake: the submitted
 * answer, the last action and any action repeated in a row (a loop), the
 * arguments of failed searches, and for code the outputs the failing tests
 * reported (`# output: …` in the feedback).
 */
export function mistakeCandidates(trial: TrialView): string[] {
  const candidates: string[] = [];
  if (trial.answer) candidates.push(trial.answer);
  const actions = trial.steps.map((step) => step.action?.text ?? "").filter((text) => text !== "");
  const last = actions.at(-1);
  if (last) candidates.push(last);
  for (let index = 1; index < actions.length; index += 1) if (actions[index] === actions[index - 1]) candidates.push(actions[index]!);
  for (const step of trial.steps) {
    const search = /^\s*Search\[(.+)\]\s*$/.exec(step.action?.text ?? "");
    if (search?.[1] && /^(Could not find|No Results)/.test(step.observation?.text ?? "")) candidates.push(search[1]);
  }
  const feedback = trial.evaluation?.feedback ?? "";
  for (const match of feedback.matchAll(/# output: ([^\n]+)/g)) candidates.push(match[1]!);
  return unique(candidates).filter((candidate) => contentWords(candidate).length > 0 || /\d/.test(candidate));
}

/** True when `needle` (non-empty) occurs as consecutive words of `haystack`. */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  return haystack.some((_, start) => needle.every((word, offset) => haystack[start + offset] === word));
}

/** The argument of an action `Verb[argument]` (`Search[Port Averly]` → `Port Averly`), else null. */
function actionArgument(candidate: string): string | null {
  return /^\s*[A-Za-z][\w ]*\[(.+)\]\s*$/.exec(candidate)?.[1] ?? null;
}

/**
 * True when the text mentions the candidate: its content words in a row, in order, among the
 * text's content words (short and common words between them do not count; or, for a bare
 * number, the number). An action `Verb[argument]` is also mentioned by its argument alone
 * ("I searched Port Averly explorer ship"). The words merely occurring somewhere in the text is
 * no mention: a plan like "search Port Averly, then the explorer's ship" reuses every word of
 * `Search[Port Averly explorer ship]` without naming that search.
 */
function mentions(text: string, candidate: string): boolean {
  const said = contentWords(text);
  const argument = actionArgument(candidate);
  return [candidate, ...(argument ? [argument] : [])].some((form) => {
    const words = contentWords(form);
    return words.length === 0 ? matchesPhrasing(text, form) : containsRun(said, words);
  });
}

/** `text` with each mentioned mistake candidate (and a `Verb[argument]`'s argument) cut out, case-insensitively. */
function withoutMentions(text: string, mentioned: readonly string[]): string {
  const forms = mentioned.flatMap((candidate) => [candidate, actionArgument(candidate) ?? ""]).filter((form) => form.trim() !== "");
  return forms.reduce((rest, form) => rest.replace(new RegExp(form.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), " "), text);
}

/** Counts words the way a reader would (runs of letters or digits). */
export function wordCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).length;
}

/** The rubric for `text` written about `trial`, given the task's key facts (null: the task has none, `GET /api/key-facts`). */
export function assessReflection(text: string, trial: TrialView, facts: readonly KeyFact[] | null): ReflectionRubric {
  const candidates = mistakeCandidates(trial);
  const said = candidates.filter((candidate) => mentions(text, candidate));
  // `Finish[Dunmere]` and `Dunmere` are one mention: the action is left out when its argument is listed.
  const mentioned = said.filter((candidate) => {
    const argument = actionArgument(candidate);
    return argument === null || !said.includes(argument.trim());
  });
  const helps = helpsWith(facts, text);
  const words = wordCount(text);
  const action = concreteAction(text);
  // A key fact counts as a plan unless the text only states it by naming the mistake ("I answered Dunmere": the wrong answer, not what to do).
  const factPlan = helps.matched.length > 0 && helpsWith(facts, withoutMentions(text, said)).matched.length > 0;
  return {
    namesMistake: { ok: mentioned.length > 0, mentioned, candidates },
    saysInstead: { ok: action !== null || factPlan, action },
    length: { ok: words >= MIN_WORDS && words <= MAX_WORDS, words, min: MIN_WORDS, max: MAX_WORDS },
    helps,
  };
}
