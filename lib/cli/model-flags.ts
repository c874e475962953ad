import { InvalidArgumentError, Option } from "commander";
import { modelIdSchema, type RoleModelsRequest } from "@/lib/domain/config";
import type { ArmInput } from "@/lib/domain/experiment";

/**
 * The CLI's per-role model flags, shared by `run` and `experiment run`:
 * `--actor-model`, `--evaluator-model`, `--reflector-model` (each `provider:model`);
 * `--model` keeps meaning every role. A role's flag wins over `--model` for that role.
 */

/** The flags as commander hands them over. */
export interface RoleModelFlags {
  actorModel?: string;
  evaluatorModel?: string;
  reflectorModel?: string;
}

/** A commander parser for a model id, so a bad value names its flag and the accepted forms. */
export function modelIdArg(value: string): string {
  const parsed = modelIdSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`"${value}" is not a model id: use demo or provider:model (openai, anthropic, google, ollama, compatible), e.g. openai:gpt-4o-mini`);
  return parsed.data;
}

const ROLE_FLAG_HELP = {
  actor: "the Actor's model (default --model)",
  evaluator: "the Evaluator's model, for families whose Evaluator is a model (the open family's judge; default --model)",
  reflector: "the Self-Reflection's model (default --model)",
} as const;

/** The `--<role>-model <id>` option, parsed as a model id. */
export function roleModelOption(role: "actor" | "evaluator" | "reflector"): Option {
  return new Option(`--${role}-model <id>`, ROLE_FLAG_HELP[role]).argParser(modelIdArg);
}

/** The request's `models` from the role flags; undefined when none is given (every role uses --model). */
export function roleModelsFromFlags(flags: RoleModelFlags): RoleModelsRequest | undefined {
  const models: RoleModelsRequest = {};
  if (flags.actorModel) models.actor = { modelId: flags.actorModel };
  if (flags.evaluatorModel) models.evaluator = { modelId: flags.evaluatorModel };
  if (flags.reflectorModel) models.reflector = { modelId: flags.reflectorModel };
  return Object.keys(models).length > 0 ? models : undefined;
}

/**
 * An arm with the role flags applied where the arm itself names no model for the role
 * (an arms file's own `models` win, role by role).
 */
export function withRoleFlags(arm: ArmInput, flags: RoleModelFlags): ArmInput {
  const fromFlags = roleModelsFromFlags(flags);
  if (!fromFlags) return arm;
  const merged: RoleModelsRequest = { ...arm.models };
  for (const role of ["actor", "evaluator", "reflector"] as const) {
    const flag = fromFlags[role];
    if (flag && merged[role]?.modelId === undefined) merged[role] = { ...merged[role], ...flag };
  }
  return { ...arm, models: merged };
}
