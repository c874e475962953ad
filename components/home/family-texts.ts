import type { EnvironmentId } from "@/lib/domain/config";
import { familyDescriptor } from "@/lib/environments/descriptors";

/** Texts of the new-run form that depend on the task family: read from its descriptor's `texts`. */

/** Shown when the demo model is picked for a task set it has no scripts for (lib/environments/…/demo-script.ts). */
export function demoOnImportedWarning(environment: EnvironmentId): string {
  return `The demo model has scripts only for the built-in tasks; ${familyDescriptor(environment).texts.demoOnImported}. Pick a real model (set a provider key on the server) for uploaded tasks.`;
}

/** What a run of the family does, in two sentences, above the form. */
export function runIntro(environment: EnvironmentId): string {
  return familyDescriptor(environment).texts.runIntro;
}

/**
 * The label of the form's "show what the Evaluator checks" disclosure: the gold
 * answer for QA (exact match), the goal for household (the world's success
 * check — there is no gold answer), the task's reference for code, the rubric for open tasks.
 */
export function referenceLabel(environment: EnvironmentId): string {
  return familyDescriptor(environment).texts.referenceLabel;
}
