import type { DemoScriptBook } from "@/lib/domain/demo-script";
import { environmentIdSchema } from "@/lib/domain/config";
import { statesFact, type KeyFact } from "@/lib/domain/key-facts";
import { lessonsOf, withLessons } from "@/lib/domain/optimiser/lessons";
import { FAILURE_HEADING } from "@/lib/domain/optimiser/meta-prompt";
import { keyFactsFor } from "./demo-key-facts";

/**
 * The offline demo model's answer to the optimiser's meta-prompt (lib/domain/optimiser/meta-prompt.ts):
 * a scripted stand-in, not an optimiser. It reads the failed trials the meta-prompt shows, looks up
 * each task's key facts (lib/environments/demo-key-facts.ts) and finds those the Actor's memory in that
 * trial did not state; it answers with the current template plus those facts as a lessons block
 * (lib/domain/optimiser/lessons.ts), between `<template>` and `</template>`. The demo's Actor and
 * Self-Reflection act on such a block, so the loop propose → evaluate → keep runs offline and
 * the candidates solve the train tasks whose facts they carry — and only those: the facts are
 * task-specific, so held-out tasks gain nothing, which the held-out test then shows.
 *
 * A meta-prompt whose text has no `<template>` block (an edited meta-prompt) gets a labelled reply
 * without one, so the optimisation records a failed candidate. Null for any other prompt.
 */
export const demoOptimiserBook: DemoScriptBook = {
  respond(prompt: string): string | null {
    if (!prompt.includes("=== Failed trial ")) return null;
    const opening = prompt.indexOf("<template>\n");
    const closing = opening === -1 ? -1 : prompt.indexOf("\n</template>", opening);
    if (opening === -1 || closing === -1) {
      return "I am the offline demo model (a scripted stand-in): this meta-prompt shows me no current template in a template block, so I cannot propose one.";
    }
    const template = prompt.slice(opening + "<template>\n".length, closing);
    const lessons = missingFacts(prompt.slice(closing)).map(lessonLine);
    const proposed = withLessons(template, lessons);
    return `I am the offline demo model (a scripted stand-in). I added ${lessonsOf(proposed).length - lessonsOf(template).length} key fact(s) the failed trials' memory lacked.\n<template>\n${proposed}\n</template>`;
  },
};

/** The key facts of the shown failures that their Actor's memory did not state, in order, each once. */
function missingFacts(failuresText: string): KeyFact[] {
  const facts: KeyFact[] = [];
  const seen = new Set<string>();
  const blocks = failuresText.split(/\n(?==== Failed trial )/);
  for (const block of blocks) {
    const [heading = "", ...rest] = block.trim().split("\n");
    const match = FAILURE_HEADING.exec(heading.trim());
    const family = environmentIdSchema.safeParse(match?.[1]);
    if (!match || !family.success) continue;
    const body = rest.join("\n");
    const memory = body.slice(0, Math.max(0, body.indexOf("Trajectory (excerpt):")));
    for (const fact of keyFactsFor({ environment: family.data, taskId: match[2]!, strategy: match[3] }) ?? []) {
      const id = `${match[2]}\u0000${fact.id}`;
      if (seen.has(id) || statesFact(memory, fact)) continue;
      seen.add(id);
      facts.push(fact);
    }
  }
  return facts;
}

/** A fact as one lesson line: its first phrasing, `+` parts joined within one sentence. */
function lessonLine(fact: KeyFact): string {
  const phrasing = fact.any[0] ?? fact.says;
  return `${phrasing.split("+").map((part) => part.trim()).join(", ")}.`;
}
