import { runConfigSchema, type RunConfig } from "@/lib/domain/config";
import type { CreateRunRequest } from "@/lib/domain/api";
import { AppError } from "@/lib/domain/errors";
import { fixedLimitsOf, supportedStrategiesOf } from "@/lib/domain/strategies";
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
 * the family's templates for the strategy (`templatesFor`, else its defaults),
 * temperature 0 (the paper's setting) and the defaults of the config schema for
 * anything the request leaves out. Strategy-specific choices
 * (docs/decisions/0008-strategies.md; `fixedLimitsOf` in lib/domain/strategies.ts):
 * - the step budget is the strategy's fixed one when it has one (`cot`,
 *   `cot-gold-context`: 1, whatever the request says), else the request's, else
 *   the family's default;
 * - `last-attempt-and-reflexion` records Ω = 1, the only reflection it shows;
 * - a family's `fixedStepsPerTrial` (code: 4 — up to 3 test asks, then the implementation) wins over everything, its
 *   `defaultMemoryWindow` (code: 1) applies when the request gives no Ω, and its
 *   `maxOutputTokens` (code: 1024) replace the app's per-role limits.
 *
 * @throws AppError("invalid-input") when the family does not support the strategy;
 *   the message names the ones it does.
 */
export function buildRunConfig(
  request: CreateRunRequest,
  entry: EnvironmentEntry,
  task: Record<string, unknown>,
  taskSetName: string,
): RunConfig {
  const { family } = entry;
  const strategy = request.strategy;
  const supported = supportedStrategiesOf(family);
  if (!supported.includes(strategy)) {
    throw new AppError(
      "invalid-input",
      `The ${entry.label} family does not support the strategy "${strategy}". Supported strategies: ${supported.join(", ")}.`,
    );
  }
  const templates = family.templatesFor?.(strategy) ?? family.defaultTemplates;
  const fixed = fixedLimitsOf(strategy, family);
  return runConfigSchema.parse({
    environment: request.environment,
    taskSetName,
    taskId: request.taskId,
    task,
    strategy,
    memoryWindow: fixed.memoryWindow ?? (request.memoryWindow === undefined ? family.defaultMemoryWindow : request.memoryWindow),
    maxTrials: request.maxTrials,
    maxStepsPerTrial: fixed.stepsPerTrial ?? request.maxStepsPerTrial ?? family.defaultMaxStepsPerTrial,
    models: {
      actor: { modelId: request.modelId, temperature: 0, maxOutputTokens: family.maxOutputTokens?.actor ?? ACTOR_MAX_OUTPUT_TOKENS },
      reflector: {
        modelId: request.reflectorModelId ?? request.modelId,
        temperature: 0,
        maxOutputTokens: family.maxOutputTokens?.reflector ?? REFLECTOR_MAX_OUTPUT_TOKENS,
      },
    },
    // A replaced text keeps the template's id and gets the next version, as a prompt edit would.
    templates: {
      actor: request.templates?.actor ? { ...templates.actor, version: templates.actor.version + 1, text: request.templates.actor } : templates.actor,
      reflector: request.templates?.reflector
        ? { ...templates.reflector, version: templates.reflector.version + 1, text: request.templates.reflector }
        : templates.reflector,
    },
    breakpoints: request.breakpoints,
    replayMode: request.replayMode,
    cacheScope: request.cacheScope ?? null,
  });
}
