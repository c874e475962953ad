import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { CreateRunRequest } from "@/lib/domain/api";
import type { EnvironmentEntry } from "@/lib/environments/registry";

/**
 * Output-token limits per role, following the reference code (HotpotQA: Actor 100
 * per call there with two calls per step; we make one call per step so allow the
 * thought and the action together; Self-Reflection 250).
 */
const ACTOR_MAX_OUTPUT_TOKENS = 256;
const REFLECTOR_MAX_OUTPUT_TOKENS = 250;

/**
 * Builds a full {@link RunConfig} from a create-run request and a task snapshot:
 * the family's default templates, temperature 0 (the paper's setting) and the
 * defaults of the config schema for anything the request leaves out.
 */
export function buildRunConfig(
  request: CreateRunRequest,
  entry: EnvironmentEntry,
  task: Record<string, unknown>,
  taskSetName: string,
): RunConfig {
  const templates = entry.family.defaultTemplates;
  return runConfigSchema.parse({
    environment: request.environment,
    taskSetName,
    taskId: request.taskId,
    task,
    strategy: request.strategy,
    memoryWindow: request.memoryWindow,
    maxTrials: request.maxTrials,
    maxStepsPerTrial: request.maxStepsPerTrial ?? entry.family.defaultMaxStepsPerTrial,
    models: {
      actor: { modelId: request.modelId, temperature: 0, maxOutputTokens: ACTOR_MAX_OUTPUT_TOKENS },
      reflector: { modelId: request.modelId, temperature: 0, maxOutputTokens: REFLECTOR_MAX_OUTPUT_TOKENS },
    },
    templates: { actor: templates.actor, reflector: templates.reflector },
    breakpoints: request.breakpoints,
  });
}
