import { matchesPhrasing, normaliseForFacts } from "@/lib/domain/key-facts";

/**
 * Whether a reflection's "what to do instead" names a **concrete action**: an action in the
 * family's own form (`Search[Port Averly]`, `Lookup[river]`), or an action verb with an object
 * ("search the town's page", "look up the river", "check the tests", "go to desk 1", "handle
 * negative numbers"). "Think harder before answering", "be more careful", "search more carefully"
 * or "double-check my answer" name no action on anything: they are wishes, not plans.
 *
 * Pure and text-only (no trial, no model), so it reads the same on any run; the rubric
 * (./rubric.ts) also counts a key fact of the task as a plan. Calibrated on the paper's real
 * reflections (shared/data/reflexion: HotpotQA, ALFWorld, WebShop, HumanEval, MBPP), nearly all of
 * which name an action with its object (tests/reflection-practice/concrete-plan.test.ts).
 */

/** Action verbs, as `normaliseForFacts` stems them ("searched" → `search`, "verify" → `verifi`, "use" → `us`). */
const ACTION_VERBS = new Set([
  "search", "look", "lookup", "check", "verifi", "confirm", "find", "found", "read", "reread", "compar", "test", "go", "goe", "went", "open",
  "take", "took", "taken", "put", "place", "us", "return", "handl", "call", "includ", "examin", "clean", "heat", "cool", "slice", "chang",
  "fix", "modifi", "implement", "ad", "remov", "iter", "loop", "sort", "convert", "count", "split", "replac", "append", "consid", "identifi",
  "answer", "finish", "submit", "click", "bui", "select", "choos", "pick", "filter", "turn", "navig", "inspect", "calcul", "comput", "revers",
  "pars", "account", "focu", "focus", "explor", "visit", "reword", "rephras", "narrow", "prioriti", "investig", "research", "cross",
]);

/** Words between a verb and its object: particles, prepositions, determiners, quantifiers, possessives. */
const FILLERS = new Set([
  "up", "for", "at", "into", "to", "on", "onto", "about", "in", "out", "of", "with", "from", "both", "each", "all", "ani", "some", "my", "our",
  "their", "it", "its", "other", "anoth", "more", "also", "again", "first", "then", "exact", "specif", "correct", "right", "new", "differ",
  // "information about the company": the object follows.
  "inform", "detail", "data",
]);

/** Objects that name nothing in particular: an action on them is no plan. */
const VAGUE_OBJECTS = new Set([
  "that", "thi", "these", "those", "them", "thing", "someth", "everyth", "anyth", "stuff", "harder", "better", "best", "question", "answer",
  "task", "problem", "mistak", "step", "wai", "time", "sure", "care", "well", "enough", "befor", "after", "next", "what", "how",
  "whether", "if", "when", "where", "which", "who", "i", "me", "myself", "we", "you", "everi", "more", "possibl", "option",
  // Not objects at all: the verb had none.
  "and", "or", "but", "be", "is", "ar", "wa", "were", "been", "should", "would", "could", "will", "can", "have", "ha", "had", "do", "did",
  "not", "no", "so", "than", "as", "by", "until", "while", "becaus", "instead", "there", "here", "there",
]);

/** How many words after the verb may stand before its object. */
const OBJECT_WINDOW = 6;

/** A family's action in its own form: `Search[Port Averly]`, `Finish[1920]`. */
const BRACKET_ACTION = /\b[A-Z][a-z]+\[[^\]\n]+\]/;

/** The sentences of a text (split after `.`, `!`, `?`, `;`, `:` or a line break). */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?;:])\s+|\n+/);
}

/** An adverb as stemmed (`carefully` → `carefulli`, `closely` → `close`… only the `-li` form is caught). */
const isAdverb = (word: string) => word.length > 4 && word.endsWith("li");

/** Words that make a sentence say what to do (rather than what was done): "next time", "should", "instead"… */
const PLAN_CUES = [
  "next time", "should", "must", "need to", "needs to", "have to", "has to", "will", "instead", "rather than", "make sure", "remember", "always",
  "never", "do not", "dont", "plan", "going to", "ought", "better to", "could have", "to fix", "to avoid", "to solve", "in order to",
];

/** A sentence that says what to do: it has a plan cue, or it opens with an action (an imperative: "Go to desk 1 first."). */
function isPlanSentence(sentence: string, words: readonly string[]): boolean {
  const first = words[0];
  return (first !== undefined && ACTION_VERBS.has(first)) || /^\s*[A-Z][a-z]+\[/.test(sentence) || PLAN_CUES.some((cue) => matchesPhrasing(sentence, cue));
}

/**
 * The first action with an object that a sentence saying what to do names (`Search[Port Averly]`,
 * "search town"), or null when it names none. A sentence that only recounts the trial ("I answered
 * Dunmere", "I looped on Search[X]") is no plan, however concrete.
 */
export function concreteAction(text: string): string | null {
  for (const sentence of sentences(text)) {
    const words = normaliseForFacts(sentence);
    if (!isPlanSentence(sentence, words)) continue;
    const bracket = BRACKET_ACTION.exec(sentence);
    if (bracket) return bracket[0];
    for (let index = 0; index < words.length; index += 1) {
      const verb = words[index]!;
      if (!ACTION_VERBS.has(verb)) continue;
      for (let offset = 1; offset <= OBJECT_WINDOW && index + offset < words.length; offset += 1) {
        const word = words[index + offset]!;
        if (FILLERS.has(word) || isAdverb(word)) continue;
        if (VAGUE_OBJECTS.has(word)) break;
        return `${verb} ${word}`;
      }
    }
  }
  return null;
}

/** True when the text names an action with an object (see {@link concreteAction}). */
export function namesConcreteAction(text: string): boolean {
  return concreteAction(text) !== null;
}
