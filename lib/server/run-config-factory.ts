import { assertTemplateText } from "@/lib/domain/template-check";
import { templateRulesFor } from "./template-rules";
import { latsSettingsSchema, runConfigSchema, type PromptTemplate, type RunConfig } from "@/lib/domain/config";
import { DEFAULT_SUMMARIZER_TEXT } from "@/lib/domain/memory-summary";
import { LATS_VALUE_TEMPLATE, latsValueTemplateId } from "@/lib/domain/lats-value";
import { templateVersionId } from "@/lib/db/template-store";
import type { CreateRunRequest } from "@/lib/domain/api";
import { AppError } from "@/lib/domain/errors";
import { fixedLimitsOf, strategyBehaviour, supportedStrategiesOf } from "@/lib/domain/strategies";
import { GENERIC_FEEDBACK_TEMPLATE, GENERIC_REFINE_TEMPLATE, refineRoundsOf } from "@/lib/domain/self-refine";
import type { EnvironmentEntry } from "@/lib/environments/registry";

/**
 * Output-token limits per role, following the reference code (HotpotQA: Actor 100
 * per call there with two calls per step; we make one call per step so allow the
 * thought and the action together; Self-Reflection 250).
 */
const ACTOR_MAX_OUTPUT_TOKENS = 256;
const REFLECTOR_MAX_OUTPUT_TOKENS = 250;
/** The LLM judge's default output-token limit (a short justification per criterion), when its family sets none. */
const EVALUATOR_MAX_OUTPUT_TOKENS = 512;

/**
 * Template library versions chosen for a run, already looked up
 * (lib/server/template-service.ts `resolveRunTemplates`): each replaces the
 * family's built-in for its role, with its `versionId`.
 */
export interface ResolvedTemplates {
  actor?: PromptTemplate;
  reflector?: PromptTemplate;
  summarizer?: PromptTemplate;
  value?: PromptTemplate;
}

/** The built-in value prompt of a family's tree search (`<family>/lats-value` v1, lib/domain/lats-value.ts). */
export function builtInValueTemplate(family: string): PromptTemplate {
  const id = latsValueTemplateId(family);
  return { id, version: LATS_VALUE_TEMPLATE.version, text: LATS_VALUE_TEMPLATE.text, versionId: templateVersionId(id, LATS_VALUE_TEMPLATE.text) };
}

/** The built-in summariser template of a family (`<family>/summarize-memory` v1, lib/domain/memory-summary.ts). */
export function builtInSummarizer(family: string): PromptTemplate {
  const id = `${family}/summarize-memory`;
  return { id, version: 1, text: DEFAULT_SUMMARIZER_TEXT, versionId: templateVersionId(id, DEFAULT_SUMMARIZER_TEXT) };
}

/**
 * The run's model per role. Each role takes its own choice from
 * `request.models` when given, else: the model `request.modelId` (the Self-Reflection:
 * `reflectorModelId` first), temperature 0 (the paper's setting for every role), and the
 * family's output-token limit (else the app's). The Evaluator gets settings only in
 * families whose Evaluator is a model (`evaluatorUsesModel`); elsewhere a requested
 * Evaluator model is ignored (there is nothing to call).
 */
export function roleModelsOf(request: CreateRunRequest, family: EnvironmentEntry["family"]): RunConfig["models"] {
  const pick = (role: "actor" | "reflector" | "evaluator", modelId: string, maxOutputTokens: number) => {
    const choice = request.models?.[role];
    return { modelId: choice?.modelId ?? modelId, temperature: choice?.temperature ?? 0, maxOutputTokens: choice?.maxOutputTokens ?? maxOutputTokens, ...(choice?.seed === undefined ? {} : { seed: choice.seed }) };
  };
  const actor = pick("actor", request.modelId, family.maxOutputTokens?.actor ?? ACTOR_MAX_OUTPUT_TOKENS);
  const reflector = pick("reflector", request.reflectorModelId ?? request.modelId, family.maxOutputTokens?.reflector ?? REFLECTOR_MAX_OUTPUT_TOKENS);
  if (!family.evaluatorUsesModel) return { actor, reflector };
  return { actor, reflector, evaluator: pick("evaluator", request.modelId, family.maxOutputTokens?.evaluator ?? EVALUATOR_MAX_OUTPUT_TOKENS) };
}

/** A family's template with the id of its built-in library version (content-addressed, so no lookup is needed). */
function withVersionId(template: PromptTemplate): PromptTemplate {
  return { ...template, versionId: templateVersionId(template.id, template.text) };
}

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
 *
 * Templates: a role's text in `request.templates` wins (recorded with
 * `versionId: null`, it is no saved version), then the `resolved` library
 * version, then the family's built-in, recorded with its built-in version id.
 * `request.memoryManagement` of kind `summarize` takes `resolved.summarizer`, else
 * the family's built-in summariser. A refining method (Self-Refine) records the family's
 * feedback and refine templates (`refineTemplates`, else the generic ones) and `request.refineRounds`.
 *
 * @throws AppError("invalid-input") when the family does not support the strategy;
 *   the message names the ones it does.
 */
export function buildRunConfig(
  request: CreateRunRequest,
  entry: EnvironmentEntry,
  task: Record<string, unknown>,
  taskSetName: string,
  resolved: ResolvedTemplates = {},
): RunConfig {
  const { family } = entry;
  const strategy = request.strategy;
  assertRequestTemplates(request, family.id);
  const supported = supportedStrategiesOf(family);
  if (!supported.includes(strategy)) {
    throw new AppError(
      "invalid-input",
      `The ${entry.label} family does not support the strategy "${strategy}". Supported strategies: ${supported.join(", ")}.`,
    );
  }
  const templates = family.templatesFor?.(strategy) ?? family.defaultTemplates;
  const fixed = fixedLimitsOf(strategy, family);
  const refines = refineRoundsOf({ strategy }) > 0;
  return runConfigSchema.parse({
    environment: request.environment,
    taskSetName,
    taskId: request.taskId,
    task,
    strategy,
    memoryWindow: fixed.memoryWindow ?? (request.memoryWindow === undefined ? family.defaultMemoryWindow : request.memoryWindow),
    maxTrials: request.maxTrials,
    maxStepsPerTrial: fixed.stepsPerTrial ?? request.maxStepsPerTrial ?? family.defaultMaxStepsPerTrial,
    models: roleModelsOf(request, family),
    // A replaced text keeps the template's id and gets the next version, as a prompt edit would.
    templates: {
      actor: request.templates?.actor
        ? { ...templates.actor, version: templates.actor.version + 1, text: request.templates.actor, versionId: null }
        : (resolved.actor ?? withVersionId(templates.actor)),
      reflector: request.templates?.reflector
        ? { ...templates.reflector, version: templates.reflector.version + 1, text: request.templates.reflector, versionId: null }
        : (resolved.reflector ?? withVersionId(templates.reflector)),
      // A tree search's value prompt: the chosen library version, else the family's built-in.
      ...(strategyBehaviour(strategy).treeSearch ? { value: resolved.value ?? builtInValueTemplate(request.environment) } : {}),
      // A refining method (Self-Refine) records the family's feedback and refine templates, so the run says which text made each prompt.
      ...(refines ? { feedback: withVersionId(family.refineTemplates?.feedback ?? GENERIC_FEEDBACK_TEMPLATE), refine: withVersionId(family.refineTemplates?.refine ?? GENERIC_REFINE_TEMPLATE) } : {}),
    },
    refineRounds: refines ? request.refineRounds : undefined,
    memoryManagement:
      request.memoryManagement?.kind === "summarize"
        ? { kind: "summarize", tokenBudget: request.memoryManagement.tokenBudget, summarizer: resolved.summarizer ?? builtInSummarizer(request.environment) }
        : undefined,
    breakpoints: request.breakpoints,
    replayMode: request.replayMode,
    cacheScope: request.cacheScope ?? null,
    // Budget, adaptive trials, warm start and memory writes, as requested (none when absent).
    budget: request.budget ?? null,
    adaptiveTrials: request.adaptiveTrials ?? null,
    warmStart: request.warmStart ?? null,
    writeMemory: request.writeMemory ?? null,
    insights: request.insights ?? null,
    // A tree-search method's parameters, with the defaults filled in (LATS); no other method has them.
    lats: strategyBehaviour(strategy).treeSearch ? latsSettingsSchema.parse(request.lats ?? {}) : undefined,
  });
}

/**
 * Refuses template texts given with a new run (or an experiment arm) that the template check flags
 * (lib/domain/template-check.ts) unless `allowUnknown`; library versions were checked when saved.
 * @throws AppError("invalid-input") naming the placeholders, the role and the opt-out.
 */
export function assertRequestTemplates(request: { templates?: { actor?: string; reflector?: string }; allowUnknown?: boolean }, environment: string, label?: string): void {
  for (const role of ["actor", "reflector"] as const) {
    const text = request.templates?.[role];
    if (text === undefined) continue;
    assertTemplateText(text, templateRulesFor(environment, role), {
      allowUnknown: request.allowUnknown,
      what: `${label ? `Arm "${label}": t` : "T"}he ${role === "actor" ? "Actor" : "Self-Reflection"} template in templates.${role}`,
      override: "allowUnknown: true (cli experiment run: --allow-unknown)",
    });
  }
}
