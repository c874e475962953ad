import type { DemoScriptBook } from "./demo-script";
import type { MemoryItem } from "./events";
import { seededUnit } from "./stats/string-seed";

/**
 * The value function of LATS (Zhou et al. 2024, §4 "Evaluation"): the Actor's model scores a
 * partial trajectory, and the score steers selection. The paper's HotpotQA value prompt asks for a
 * reasoned judgement that ends "Thus the correctness score is s" with s from 1 to 10; this template
 * keeps that ending, so {@link parseValueScore} reads every family's reply the same way.
 *
 * Placeholders: `{task}` (the family's one-line task and its setting), `{trajectory}` (the steps
 * so far, rendered as the Actor saw them), `{reflections}` (the reflections on earlier failed
 * trajectories, or nothing).
 */
export const LATS_VALUE_TEMPLATE = {
  id: "lats/value",
  version: 1,
  text: `You judge a partial attempt at a task, to decide which attempts are worth continuing.

Task: {task}
{reflections}
Attempt so far:{trajectory}

Analyse the attempt step by step: is each action sensible, did an observation show a mistake, and is it on the way to a correct result? Then conclude with "Thus the correctness score is s", where s is an integer from 1 to 10.`,
} as const;

/** The library id of a family's value template (role `value`): `<family>/lats-value`. */
export function latsValueTemplateId(family: string): string {
  return `${family}/lats-value`;
}

/** The placeholders the engine fills in a value template. */
export const LATS_VALUE_VARIABLES = ["reflections", "task", "trajectory"] as const;

/** The phrase a value reply ends with; the score follows it. */
export const VALUE_SCORE_PHRASE = "correctness score is";

/**
 * The score in a value reply as a value 0–1 (s / 10), from the last "correctness score is s"
 * (s an integer or decimal 0–10; "s/10" and "s out of 10" are read too). Null when the reply states
 * no such score, or one outside 0–10.
 */
export function parseValueScore(text: string): number | null {
  const matches = [...text.matchAll(/correctness score is\s*[:=]?\s*\**\s*(\d+(?:\.\d+)?)/giu)];
  const last = matches.at(-1);
  if (!last) return null;
  const score = Number(last[1]);
  if (!Number.isFinite(score) || score < 0 || score > 10) return null;
  return score / 10;
}

/** The `{reflections}` slot: the reflections the trial carries, as a short list, or "" without any. */
export function renderValueReflections(memory: readonly MemoryItem[]): string {
  if (memory.length === 0) return "";
  return `\nReflections on earlier failed attempts:\n${memory.map((item) => `- ${item.text}`).join("\n")}\n`;
}

/** Words of an observation that show the last action went wrong, in every family's wording. */
const MISTAKE = /\b(?:invalid|nothing happens|could not find|did not find|no results|error|failed|not found|incorrect)\b/iu;

/**
 * The offline demo model's value function, labelled a scripted stand-in: it recognises a value
 * prompt by {@link VALUE_SCORE_PHRASE} in its last paragraph and answers with a score drawn from
 * the prompt itself (a seeded draw, 3–8), lowered to 2 when the last observation shows a mistake.
 * It is not a judgement of the attempt: offline, the tree's shape comes from the Actor's sampled
 * variety, the reflections and the Evaluator.
 */
export const latsValueDemoBook: DemoScriptBook = {
  respond(prompt) {
    const tail = prompt.slice(-400);
    if (!tail.includes(VALUE_SCORE_PHRASE) || !prompt.includes("Attempt so far:")) return null;
    const attempt = prompt.slice(prompt.lastIndexOf("Attempt so far:"), prompt.lastIndexOf("Analyse the attempt"));
    const observations = [...attempt.matchAll(/Observation[^:\n]*:([^\n]*)/gu)].map((match) => match[1] ?? "");
    const last = observations.at(-1) ?? "";
    const mistake = MISTAKE.test(last);
    const score = mistake ? 2 : 3 + Math.floor(seededUnit(0, attempt) * 6);
    const why = mistake ? "The last observation shows the action did not work." : "The attempt is plausible so far.";
    return `${why} (Scripted demo value, not a judgement.) Thus the correctness score is ${score}`;
  },
};
