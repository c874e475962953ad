import type { Strategy } from "@/lib/domain/config";
import type { ArmInput } from "@/lib/domain/experiment";
import { parseMemoryWindowText } from "@/lib/domain/memory-window";
import { memoryWindowApplies } from "@/lib/domain/strategies";
import { templateVersionsRequest } from "./template-picker";
import { formRoles, roleModelsFromDrafts, type RoleModelDrafts } from "./role-models";
import { runExtrasRequest, type RunExtrasDrafts } from "./run-extras";

/**
 * The "New experiment" form's arm rows as typed, turned into the contract's
 * arms (lib/domain/experiment.ts) before `POST /api/experiments`. Pure.
 */

/** One arm row as typed (numbers stay strings until submitted). */
export interface ArmDraft {
  /** React key of the row. */
  key: number;
  /** null: the label follows the strategy's name until the person types one. */
  label: string | null;
  strategy: Strategy;
  /** null: the server's default model. */
  modelId: string | null;
  /** Memory window Ω as typed; empty = the family's default. */
  memoryWindow: string;
  /** Template library version ids per role (lib/domain/template-library.ts); missing or "" = the family's built-in. */
  templates?: Partial<Record<"actor" | "reflector", string>>;
  /** A model and settings per role (empty fields = the arm's model, temperature 0, the family's limits). */
  roleModels?: RoleModelDrafts;
  /** Budget, early stop and memory store fields of the arm. */
  extras?: RunExtrasDrafts;
}

/** The label an arm row shows and submits: the typed one, else the strategy's name. */
export function armLabel(arm: Pick<ArmDraft, "label" | "strategy">): string {
  return arm.label ?? arm.strategy;
}

/**
 * The contract's arms from the typed rows, or the first problem in words that
 * say what to do (empty or duplicate labels, no model, an Ω that is not a
 * whole number ≥ 1). Ω is sent only where it applies (`memoryWindowApplies`, lib/domain/strategies);
 * template versions only for the roles a version was picked for.
 */
export function armsFromDrafts(
  drafts: readonly Pick<ArmDraft, "label" | "strategy" | "modelId" | "memoryWindow" | "templates" | "roleModels" | "extras">[],
  defaultModelId: string | null,
  family: { fixedStepsPerTrial?: number | null; evaluatorUsesModel?: boolean } | undefined,
): { arms: ArmInput[]; problem: string | null } {
  const arms: ArmInput[] = [];
  const labels = new Set<string>();
  for (const [index, draft] of drafts.entries()) {
    const label = armLabel(draft).trim();
    if (!label) return { arms, problem: `Arm ${index + 1}: give it a label (shown in the curves and the grid).` };
    if (labels.has(label)) return { arms, problem: `Two arms are labelled "${label}": rename one (labels must be unique).` };
    labels.add(label);
    const modelId = draft.modelId ?? defaultModelId;
    if (!modelId) return { arms, problem: `Arm "${label}": pick a model (the model list has not loaded yet).` };
    const arm: ArmInput = { label, strategy: draft.strategy, modelId };
    if (memoryWindowApplies(draft.strategy, family)) {
      const omega = parseMemoryWindowText(draft.memoryWindow);
      if (!omega.ok) return { arms, problem: `Arm "${label}": ${omega.problem}, or empty for the family's default.` };
      if (omega.value !== null) arm.memoryWindow = omega.value;
    }
    const templateVersions = templateVersionsRequest(draft.templates ?? {});
    if (templateVersions) arm.templateVersions = templateVersions;
    const roles = roleModelsFromDrafts(draft.roleModels ?? {}, formRoles(family?.evaluatorUsesModel));
    if (roles.problem) return { arms, problem: `Arm "${label}": ${roles.problem}` };
    if (roles.models) arm.models = roles.models;
    const extras = runExtrasRequest(draft.extras ?? {});
    if (extras.problem) return { arms, problem: `Arm "${label}": ${extras.problem}` };
    Object.assign(arm, extras.request);
    arms.push(arm);
  }
  if (arms.length === 0) return { arms, problem: "Add at least one arm." };
  return { arms, problem: null };
}
