import type { RoleModelsRequest } from "@/lib/domain/config";

/**
 * The forms' "a model per role" fields as typed, and the request's
 * `models` built from them. Pure, so the new-run form and the experiment arms share it.
 */

/** The roles a form can set a model for. The Evaluator only where the family's Evaluator is a model. */
export type FormRole = "actor" | "reflector" | "evaluator";

/** One role's fields as typed: "" = same as the run's model / the family's default. */
export interface RoleModelDraft {
  modelId: string;
  temperature: string;
  maxOutputTokens: string;
}

/** Every role's draft; a role left out is all defaults. */
export type RoleModelDrafts = Partial<Record<FormRole, RoleModelDraft>>;

/** An empty draft (every field follows the defaults). */
export const EMPTY_ROLE_DRAFT: RoleModelDraft = { modelId: "", temperature: "", maxOutputTokens: "" };

/** Labels of the roles, in the method's terms. */
export const ROLE_LABELS: Record<FormRole, string> = { actor: "Actor", evaluator: "Evaluator", reflector: "Self-Reflection" };

/**
 * The request's `models` from the drafts, or the first problem in words that say what
 * to do. `roles` are the roles the form shows (others are not sent). Undefined when
 * every field follows the defaults, so the simple case sends nothing new.
 */
export function roleModelsFromDrafts(drafts: RoleModelDrafts, roles: readonly FormRole[]): { models: RoleModelsRequest | undefined; problem: string | null } {
  const models: RoleModelsRequest = {};
  for (const role of roles) {
    const draft = drafts[role];
    if (!draft) continue;
    const choice: NonNullable<RoleModelsRequest[FormRole]> = {};
    if (draft.modelId !== "") choice.modelId = draft.modelId;
    if (draft.temperature.trim() !== "") {
      const t = Number(draft.temperature);
      if (!Number.isFinite(t) || t < 0 || t > 2) return { models: undefined, problem: `${ROLE_LABELS[role]}: the temperature is a number from 0 to 2, or empty for 0.` };
      choice.temperature = t;
    }
    if (draft.maxOutputTokens.trim() !== "") {
      const n = Number(draft.maxOutputTokens);
      if (!Number.isInteger(n) || n < 1 || n > 8192) {
        return { models: undefined, problem: `${ROLE_LABELS[role]}: max output tokens is a whole number from 1 to 8192, or empty for the family's default.` };
      }
      choice.maxOutputTokens = n;
    }
    if (Object.keys(choice).length > 0) models[role] = choice;
  }
  return { models: Object.keys(models).length > 0 ? models : undefined, problem: null };
}

/** The roles a form shows for a family: the Evaluator only when it is a model. */
export function formRoles(evaluatorUsesModel: boolean | undefined): FormRole[] {
  return evaluatorUsesModel ? ["actor", "evaluator", "reflector"] : ["actor", "reflector"];
}
