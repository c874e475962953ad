import { stemmer } from "stemmer";
import { z } from "zod";

/**
 * Key facts: what a reflection must *say* for the offline demo model to act on
 * it (decision 0022). The demo model is a scripted stand-in,
 * not an LLM: its Actor takes a task's correct ("informed") path only when the
 * episodic memory states every key fact of that task, in any wording the
 * fact's phrasings allow. A student's correct reflection in their own words
 * therefore helps, and "I should be more careful" does not.
 *
 * Matching (see {@link normaliseForFacts}): both texts are folded — Unicode
 * NFKD with diacritics removed, lower case, apostrophes dropped, every other
 * non-letter/digit a word break, number words one…twelve as digits, the
 * articles a/an/the dropped — and each word reduced to its Porter stem
 * (`stemmer`, so "rivers"/"river", "opened"/"open", "searching"/"search"
 * match). A phrasing matches when its stemmed words occur consecutively in the
 * text's stemmed words. A phrasing of the form `"lamp + first"` matches when
 * every `+`-separated part occurs within one sentence of the text.
 *
 * The "helps" rule: a reflection helps when it matches at least one phrasing
 * of EVERY key fact of the task; facts it does not match are `missing`.
 */

/** One fact a reflection must state, with the wordings that count as stating it. */
export interface KeyFact {
  /** Stable id within its task, e.g. `"search-next"`, `"answer-type"`, `"edge-case"`. */
  id: string;
  /** Phrasings, any one of which states the fact (see the module comment for `+`). Non-empty. */
  any: readonly string[];
  /** What the fact is, in words for the learner: e.g. "the entity to search next (Dunmere)". */
  says: string;
}

/** {@link KeyFact} on the wire (`GET /api/key-facts`). */
export const keyFactSchema = z.object({ id: z.string().min(1), any: z.array(z.string().min(1)).min(1), says: z.string().min(1) });

/**
 * `GET /api/key-facts?environment=&taskId=&strategy=`: a task's key facts, so the
 * browser can match a learner's text as they type with the same
 * {@link matchKeyFacts}. `known: false` (and no facts) for a task that has none.
 */
export const keyFactsResponseSchema = z.object({ known: z.boolean(), facts: z.array(keyFactSchema) });
export type KeyFactsResponse = z.infer<typeof keyFactsResponseSchema>;

/** The verdict of {@link matchKeyFacts}: whether the text helps the demo model, and which facts it states. */
export interface KeyFactMatch {
  /** True when every fact is matched (and there is at least one fact). */
  helps: boolean;
  /** Ids of the facts the text states, in the facts' order. */
  matched: string[];
  /** Ids of the facts the text does not state, in the facts' order. */
  missing: string[];
}

const NUMBER_WORDS: Readonly<Record<string, string>> = {
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
};

const ARTICLES = new Set(["a", "an", "the"]);

/**
 * The stemmed words of `text` (see the module comment): NFKD without combining
 * marks, lower case, apostrophes removed, number words as digits, articles
 * dropped, Porter stems.
 */
export function normaliseForFacts(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/['’‘`]/gu, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "" && !ARTICLES.has(word))
    .map((word) => stemmer(NUMBER_WORDS[word] ?? word));
}

/** True when `needle` (non-empty) occurs as consecutive words of `haystack`. */
function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    for (let offset = 0; offset < needle.length; offset += 1) {
      if (haystack[start + offset] !== needle[offset]) continue outer;
    }
    return true;
  }
  return false;
}

/** The text's sentences (split after `.`, `!`, `?`, `;` or a line break), each as stemmed words. */
function sentencesOf(text: string): string[][] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/u)
    .map(normaliseForFacts)
    .filter((words) => words.length > 0);
}

/** True when `text` states the phrasing (consecutive words, or every `+` part within one sentence). */
export function matchesPhrasing(text: string, phrasing: string): boolean {
  const parts = phrasing.split("+").map((part) => normaliseForFacts(part));
  if (parts.some((part) => part.length === 0)) return false;
  if (parts.length === 1) return containsRun(normaliseForFacts(text), parts[0] ?? []);
  return sentencesOf(text).some((sentence) => parts.every((part) => containsRun(sentence, part)));
}

/** True when `text` matches at least one of the fact's phrasings. */
export function statesFact(text: string, fact: KeyFact): boolean {
  return fact.any.some((phrasing) => matchesPhrasing(text, phrasing));
}

/** {@link KeyFactMatch} plus the facts themselves; `known` is false for a task with no key facts (not built in). */
export interface ReflectionHelpsResult extends KeyFactMatch {
  known: boolean;
  facts: readonly KeyFact[];
}

/** {@link matchKeyFacts} for a task's facts, or `known: false` (never helps) when the task has none (`facts === null`). */
export function helpsWith(facts: readonly KeyFact[] | null, text: string): ReflectionHelpsResult {
  if (facts === null) return { known: false, facts: [], helps: false, matched: [], missing: [] };
  return { known: true, facts, ...matchKeyFacts(facts, text) };
}

/** Which of `facts` the text states; `helps` when it states all of them (never for an empty list). */
export function matchKeyFacts(facts: readonly KeyFact[], text: string): KeyFactMatch {
  const matched: string[] = [];
  const missing: string[] = [];
  for (const fact of facts) (statesFact(text, fact) ? matched : missing).push(fact.id);
  return { helps: facts.length > 0 && missing.length === 0, matched, missing };
}
