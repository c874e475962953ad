import { SUMMARIZER_VARIABLES } from "@/lib/domain/memory-summary";
import { META_PROMPT_REQUIRED, META_PROMPT_VARIABLES } from "@/lib/domain/optimiser/meta-prompt";
import { LATS_VALUE_VARIABLES } from "@/lib/domain/lats-value";
import type { TemplateRules } from "@/lib/domain/template-check";
import type { TemplateRole } from "@/lib/domain/template-library";
import { templateVariableNames } from "@/lib/engine/prompts";
import { environmentEntry, type EnvironmentEntry } from "@/lib/environments/registry";

const cache = new Map<string, { actor: string[]; reflector: string[] }>();

/** The placeholders a family's templates can use, computed once on its first built-in task (none without one). */
export function templateVariablesOf(entry: EnvironmentEntry): { actor: string[]; reflector: string[] } {
  const cached = cache.get(entry.family.id);
  if (cached) return cached;
  const sample = entry.builtinTasks[0];
  const names = sample === undefined ? { actor: [], reflector: [] } : templateVariableNames(entry.family, entry.family.parseTask(sample));
  cache.set(entry.family.id, names);
  return names;
}

/** The placeholders a family's Actor and Self-Reflection templates must use (`EnvironmentFamily.requiredTemplateVariables`). */
export function requiredTemplateVariablesOf(entry: EnvironmentEntry): { actor: string[]; reflector: string[] } {
  const required = entry.family.requiredTemplateVariables;
  return { actor: [...(required?.actor ?? [])], reflector: [...(required?.reflector ?? [])] };
}

/**
 * What the engine fills for a family's template of `role` (lib/domain/template-check.ts): the
 * Actor's and Self-Reflection's names from the family; the summariser's fixed three
 * (`{reflections}` required); the optimiser meta-prompt's four (`{template}` and `{failures}` required). Null for a role without placeholder rules (the evaluator's): only
 * the size cap applies. A family without a built-in task knows no names: null too.
 * @throws AppError("invalid-input") for an unknown family (from the registry).
 */
export function templateRulesFor(environment: string, role: TemplateRole): TemplateRules | null {
  if (role === "summarizer") return { known: [...SUMMARIZER_VARIABLES], required: ["reflections"] };
  if (role === "optimiser") return { known: [...META_PROMPT_VARIABLES], required: [...META_PROMPT_REQUIRED] };
  if (role === "value") return { known: [...LATS_VALUE_VARIABLES], required: ["trajectory"] };
  if (role !== "actor" && role !== "reflector") return null;
  const entry = environmentEntry(environment);
  const known = templateVariablesOf(entry)[role];
  if (known.length === 0) return null;
  return { known, required: requiredTemplateVariablesOf(entry)[role] };
}
