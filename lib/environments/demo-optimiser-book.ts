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
 * the candidates solve the train tasks whose facts they carry. The facts are task-specific, so
 * they do nothing for held-out tasks; but when the failures show vague reflections (stating none
 * of their task's facts) and the template is a Self-Reflection one (no `{memory}` slot), it also
 * asks for the failing step and the next action ({@link SPECIFIC_REFLECTION_ASK}), which helps
 * on every task, held-out ones included — the held-out test then shows the difference.
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
    const read = readFailures(prompt.slice(closing));
    let proposed = withLessons(template, read.missing.map(lessonLine));
    // Vague reflections (stating none of their task's facts) get a Self-Reflection template an instruction to be specific.
    const asks = !template.includes("{memory}") && read.vagueReflections > 0 && !template.includes(SPECIFIC_REFLECTION_ASK);
    if (asks) proposed = `${SPECIFIC_REFLECTION_ASK} ${proposed}`;
    const added = lessonsOf(proposed).length - lessonsOf(template).length;
    return `I am the offline demo model (a scripted stand-in). I added ${added} key fact(s) the failed trials' memory lacked${asks ? " and asked for reflections that name the failing step and the next action" : ""}.\n<template>\n${proposed}\n</template>`;
  },
};

/**
 * The instruction the demo adds to a Self-Reflection template whose failed trials wrote vague
 * reflections: it asks for the failing step and the next action, which the demo's reflector
 * answers with its specific reflection (lib/domain/reflector-wording.ts), on every task.
 */
export const SPECIFIC_REFLECTION_ASK = "In your reflection, name the failing step and the next action to take.";

/**
 * What the shown failures teach: the key facts their Actor's memory did not state (in order, each
 * once) and how many wrote a reflection that states none of its task's facts (a vague one).
 */
function readFailures(failuresText: string): { missing: KeyFact[]; vagueReflections: number } {
  const missing: KeyFact[] = [];
  const seen = new Set<string>();
  let vagueReflections = 0;
  for (const block of failuresText.split(/\n(?==== Failed trial )/)) {
    const [heading = "", ...rest] = block.trim().split("\n");
    const match = FAILURE_HEADING.exec(heading.trim());
    const family = environmentIdSchema.safeParse(match?.[1]);
    if (!match || !family.success) continue;
    const body = rest.join("\n");
    const memory = body.slice(0, Math.max(0, body.indexOf("Trajectory (excerpt):")));
    const reflection = /^Reflection written: (.*)$/m.exec(body)?.[1] ?? "(none)";
    const facts = keyFactsFor({ environment: family.data, taskId: match[2]!, strategy: match[3] }) ?? [];
    if (reflection !== "(none)" && facts.length > 0 && !facts.some((fact) => statesFact(reflection, fact))) vagueReflections += 1;
    for (const fact of facts) {
      const id = `${match[2]}\u0000${fact.id}`;
      if (seen.has(id) || statesFact(memory, fact)) continue;
      seen.add(id);
      missing.push(fact);
    }
  }
  return { missing, vagueReflections };
}

/** A fact as one lesson line: its first phrasing, `+` parts joined within one sentence. */
function lessonLine(fact: KeyFact): string {
  const phrasing = fact.any[0] ?? fact.says;
  return `${phrasing.split("+").map((part) => part.trim()).join(", ")}.`;
}
