/**
 * How the offline demo model's Self-Reflection answers to what a reflector template *asks*
 * (docs/decisions/0022; labelled a scripted stand-in wherever the demo model is named).
 *
 * The rule, decided on the template's instruction text only (what precedes its examples and the
 * failed trial, never the task's question or trajectory, so a task's own words cannot flip it):
 * - **specific** when the instruction asks for a plan (any "plan" not negated, e.g. the paper's
 *   "devise a new, concise, high level plan") or for the next action / next step / the exact
 *   commands to use: the demo writes its scripted reflection, which states the task's key facts,
 *   so the next trial takes the informed path;
 * - **generic** otherwise: an instruction that asks only for a general lesson, advice or principle,
 *   or for nothing in particular (an empty-ish reflector), gets a vague reflection that states none
 *   of the task's key facts, so it does not help the next trial.
 *
 * A real model's reflections also follow the instruction's wording; this stand-in makes that
 * visible offline in an A/B of two wordings, deterministically.
 */

/** What the demo Self-Reflection writes for an instruction: the scripted reflection, or a vague one. */
export type ReflectionDepth = "specific" | "generic";

/** The verdict of {@link reflectorDepth} and the phrase of the instruction that decided it. */
export interface ReflectorWordingVerdict {
  depth: ReflectionDepth;
  /** The matched phrase (as written in the instruction), or null when nothing asked for a plan or next action. */
  because: string | null;
}

/** Phrases that ask for something the next trial can act on. Matched case-insensitively on whole words. */
const ACTIONABLE = /\b(?:plans?|next (?:action|step|move|command)s?|exact commands?|what to do next|failing step)\b/giu;

/** A negation just before the phrase ("do not write a plan", "no plan", "without a plan") cancels it. */
const NEGATED = /\b(?:no|not|without|never|don't|do not|avoid)\b(?:\W+\w+){0,3}\W*$/iu;

/**
 * Whether a reflector instruction gets the demo's specific or vague reflection (the rule in this
 * module's header). Pure; whitespace and case do not matter.
 * @param instruction the reflector template's instruction text, as cut by {@link instructionOf}.
 */
export function reflectorDepth(instruction: string): ReflectorWordingVerdict {
  const text = instruction.replace(/\s+/gu, " ");
  for (const match of text.matchAll(ACTIONABLE)) {
    const before = text.slice(Math.max(0, match.index - 40), match.index);
    if (!NEGATED.test(before)) return { depth: "specific", because: match[0] };
  }
  return { depth: "generic", because: null };
}

/**
 * The instruction part of a rendered reflector prompt: the text before the earliest of `markers`
 * (where a family's template puts its examples or the failed trial, e.g. `"Here are some examples:"`,
 * `"Previous trial:"`). Pass `head` already cut before the task's own content (e.g. the failed
 * trial's question), so with no marker present the whole of `head` is the instruction.
 */
export function instructionOf(head: string, markers: readonly string[]): string {
  const prompt = head;
  let cut = -1;
  for (const marker of markers) {
    const index = prompt.indexOf(marker);
    if (index !== -1 && (cut === -1 || index < cut)) cut = index;
  }
  return cut === -1 ? prompt : prompt.slice(0, cut);
}

/**
 * The demo's vague reflection: a general lesson with no fact of the task in it, which is what an
 * instruction asking for "a general lesson" tends to get. States no key fact of any built-in task
 * (tests/domain/reflector-wording.test.ts checks every one).
 */
export const GENERIC_DEMO_REFLECTION =
  "I did not succeed this time. In general, I should slow down and think more carefully before I act.";

/** The demo Self-Reflection's text for `instruction`: `specific` when {@link reflectorDepth} says so, else {@link GENERIC_DEMO_REFLECTION}. */
export function demoReflectionFor(instruction: string, specific: string): string {
  return reflectorDepth(instruction).depth === "specific" ? specific : GENERIC_DEMO_REFLECTION;
}
