import type { DemoScriptBook } from "./demo-script";
import { INSIGHT_MEMORY_PREFIX, INSIGHTS_PROMPT_MARKER } from "./insights";

/**
 * The offline demo model's answer to ExpeL's extraction prompt (lib/domain/insights.ts), labelled a
 * scripted stand-in, for every family: it reads the reflections the prompt shows, recognises the
 * kinds of mistake they name ({@link DEMO_INSIGHT_KINDS}) and writes one general insight per kind
 * found, plus a closing habit so the list has 2–4 items. It learns nothing; it makes the extraction,
 * its storage and ExpeL runs work offline. The QA demo Actor gives an insight of its task's kind a
 * modest seeded effect on trial 1 (lib/environments/qa/demo-insights.ts).
 */

/** A kind of mistake the demo recognises in reflections, the insight it writes for it, and how a QA demo Actor recognises that insight. */
export interface DemoInsightKind {
  id: "bridge" | "titles" | "verify" | "wording";
  /** A reflection naming this mistake. */
  inReflection: RegExp;
  /** The general insight the demo writes (names no task's entity). */
  insight: string;
  /** An insight of this kind, in any wording a model might use. */
  inInsight: RegExp;
}

/** The kinds, in the order the demo lists them. */
export const DEMO_INSIGHT_KINDS: readonly DemoInsightKind[] = [
  {
    id: "bridge",
    inReflection: /but the question (?:asks|is about)/iu,
    insight: "When a question asks for an attribute of an entity reached through another one, take the extra step and answer with that attribute of the final entity, not with the bridge entity or a fact about it.",
    inInsight: /bridge entit|intermediate entit|entity reached through|extra (?:hop|step)/iu,
  },
  {
    id: "titles",
    inReflection: /not page titles|stopped for looping|(?:exact|full) title/iu,
    insight: "Search for exact page titles such as the names of people, places and works, never for descriptions; when a search finds nothing, search a name from the last page instead of repeating it.",
    inInsight: /page titles?|exact titles?|never for descriptions/iu,
  },
  {
    id: "verify",
    inReflection: /similar name|without checking|guessed/iu,
    insight: "Do not infer an answer from how something is named or from a look-alike title: copy names letter for letter from the page and read the entity's own page before answering.",
    inInsight: /look-alike|similar(?:-looking)? (?:name|title)|letter for letter|own page before/iu,
  },
  {
    id: "wording",
    inReflection: /exact match|phrasing|wording/iu,
    insight: "Give only the value the question asks for, with units written out, and no description around it.",
    inInsight: /only the value|no description around/iu,
  },
];

/** The closing habit the demo adds, so a list always has at least two insights. */
export const DEMO_CLOSING_INSIGHT = "Before finishing, reread the question and check that the answer is of the kind it asks for.";

/** Added when the reflections name none of the kinds (other families' wording), so the list still has two insights. */
export const DEMO_FALLBACK_INSIGHT = "When an action fails or changes nothing, try a different action instead of repeating it.";

/** The note after the demo's list (not a list line, so the parser leaves it out). */
export const DEMO_INSIGHTS_NOTE = "(Scripted demo insights drawn from the reflections above, not a model's judgement.)";

/** The kinds of mistake the reflections of an extraction prompt name, in {@link DEMO_INSIGHT_KINDS} order. */
export function kindsInReflections(prompt: string): DemoInsightKind[] {
  const reflections = [...prompt.matchAll(/^Reflection:[ \t]*(.*)$/gmu)].map((match) => match[1] ?? "").join("\n");
  return DEMO_INSIGHT_KINDS.filter((kind) => kind.inReflection.test(reflections));
}

/**
 * The carried-in insights of an Actor prompt's memory block: the lines that carry
 * {@link INSIGHT_MEMORY_PREFIX}; reflections on the task itself are not insights.
 */
export function insightLinesOf(memoryBlock: string): string[] {
  return memoryBlock.split("\n").filter((line) => line.includes(INSIGHT_MEMORY_PREFIX));
}

/**
 * The demo's extraction book: a prompt whose last line is {@link INSIGHTS_PROMPT_MARKER} gets a
 * numbered list (at most three kinds found, or {@link DEMO_FALLBACK_INSIGHT} when none is, plus the
 * closing habit) and {@link DEMO_INSIGHTS_NOTE};
 * any other prompt null.
 */
export const insightsDemoBook: DemoScriptBook = {
  respond(prompt) {
    if (!prompt.trimEnd().endsWith(INSIGHTS_PROMPT_MARKER)) return null;
    const found = kindsInReflections(prompt).slice(0, 3).map((kind) => kind.insight);
    const texts = [...(found.length > 0 ? found : [DEMO_FALLBACK_INSIGHT]), DEMO_CLOSING_INSIGHT];
    return `${texts.map((text, index) => `${index + 1}. ${text}`).join("\n")}\n${DEMO_INSIGHTS_NOTE}`;
  },
};
