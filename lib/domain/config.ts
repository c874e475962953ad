import { insightsOptionSchema } from "./insights";
import { z } from "zod";
import { METHOD_IDS } from "@/lib/methods/registry";
import { provenanceSchema } from "./provenance";
import { budgetSchema } from "./budget";
import { adaptiveTrialsSchema } from "./adaptive-trials";
import { warmStartSchema, writeMemorySchema } from "./memory-store";

/**
 * A task family's id, as stored in run configs and task sets: a format, not a closed list. Which
 * families exist is the registries' business (lib/environments/descriptors.ts and registry.ts:
 * one line per family folder, docs/adding-a-family.md); they answer an unknown id with an error
 * naming the registered ones.
 */
export const environmentIdSchema = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, "a task family id is lowercase letters, digits and dashes");
export type EnvironmentId = z.infer<typeof environmentIdSchema>;

/**
 * Memory strategies (Reflexion paper §4; `ReflexionStrategy` in the reference
 * code, see shared/docs/reflexion-reference.md §1.1). What each one puts in
 * each prompt: docs/decisions/0008-strategies.md; behaviour: lib/engine/strategies.ts.
 * - `none`: ReAct only. Every trial starts from scratch; no reflection is written.
 * - `reflexion`: after a failed trial the Self-Reflection model writes a lesson
 *   into the episodic memory; the next trial sees the last Ω of them.
 * - `last-attempt`: the next trial sees the previous trial's trajectory (the
 *   paper's EPM); no reflection is written.
 * - `last-attempt-and-reflexion`: the previous trajectory plus only the newest
 *   reflection (the paper's EPM + Reflexion).
 * - `cot`: closed-book chain of thought (QA): no tools, one Thought then
 *   `Finish[answer]` per trial; reflects after failures like `reflexion`.
 * - `cot-gold-context`: as `cot`, with the task's supporting paragraphs in the
 *   prompt (the paper's CoT (GT) + Reflexion, Fig. 4b).
 */
export const strategySchema = z.enum(METHOD_IDS);
export type Strategy = z.infer<typeof strategySchema>;

/** Roles that call a model. `evaluator` is reserved for LLM-judge evaluators. */
export const modelRoleSchema = z.enum(["actor", "evaluator", "reflector"]);
export type ModelRole = z.infer<typeof modelRoleSchema>;

/**
 * A model id: `demo`, or `provider:model` with provider one of `openai`,
 * `anthropic`, `google` (Gemini via `@ai-sdk/google`), `ollama` (a local Ollama
 * server) or `compatible` (any OpenAI-compatible server).
 */
export const modelIdSchema = z
  .string()
  .trim()
  .regex(/^(demo|(openai|anthropic|google|ollama|compatible):[^\s]+)$/, {
    message: "model id must be `demo` or `provider:model` with provider openai, anthropic, google, ollama or compatible",
  });
export type ModelId = z.infer<typeof modelIdSchema>;

/** Per-role model choice and sampling settings. */
export const modelSettingsSchema = z.object({
  modelId: modelIdSchema,
  /** Sampling temperature; the paper uses 0 everywhere for QA. */
  temperature: z.number().min(0).max(2).default(0),
  /** Upper bound on completion length, in tokens. */
  maxOutputTokens: z.number().int().positive().max(8192).default(256),
  /**
   * Sampling seed, sent to providers that take one (absent: none sent, as before seeds existed). Part of
   * the request hash when set. The demo model's seeded variation reads it (lib/domain/demo-variation.ts).
   */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/**
 * One role's model as a request may give it: every field optional; a field left
 * out takes the request's single `modelId` (for the model) or the family's reference default
 * (temperature 0, the family's output-token limit).
 */
export const roleModelChoiceSchema = z.object({
  modelId: modelIdSchema.optional(),
  temperature: z.number().min(0).max(2).optional(),
  /** Upper bound on completion length, in tokens. */
  maxOutputTokens: z.number().int().positive().max(8192).optional(),
  /** Sampling seed (see {@link modelSettingsSchema}). */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type RoleModelChoice = z.infer<typeof roleModelChoiceSchema>;

/**
 * Per-role model choices of a create-run request or an experiment arm:
 * Actor, Self-Reflection and — for families whose Evaluator is a model (`evaluatorUsesModel`,
 * lib/domain/environment.ts) — the Evaluator. A role left out uses the request's `modelId`.
 */
export const roleModelsRequestSchema = z.object({
  actor: roleModelChoiceSchema.optional(),
  reflector: roleModelChoiceSchema.optional(),
  evaluator: roleModelChoiceSchema.optional(),
});
export type RoleModelsRequest = z.infer<typeof roleModelsRequestSchema>;

/** A prompt template as used by a run: `{placeholder}` slots filled by the engine. */
export const promptTemplateSchema = z.object({
  /** Stable template name, e.g. `qa/react-actor`. */
  id: z.string().min(1),
  /** Bumped whenever the text changes; recorded so runs stay comparable. */
  version: z.number().int().nonnegative(),
  text: z.string().min(1),
  /**
   * The template library version this text is (lib/domain/template-library.ts, `tv-…`), or null
   * for a text that is no saved version (e.g. an unsaved prompt edit). Recorded in `run-start`
   * and every `prompt-edit`, so a run says which version produced each prompt.
   */
  versionId: z.string().nullable().optional(),
});
export type PromptTemplate = z.infer<typeof promptTemplateSchema>;

/** The memory window Ω when neither the request nor the family says otherwise (ALFWorld's 3, reference §3.7). */
export const DEFAULT_MEMORY_WINDOW = 3;

/** The largest memory window Ω a run can ask for (the paper uses 1–3; a trial budget rarely passes 100). */
export const MAX_MEMORY_WINDOW = 100;

/**
 * Ω in a request (new run, experiment arm, CLI): a whole number 1–{@link MAX_MEMORY_WINDOW}, or null
 * for no window. Stored run configs keep the looser rule so a run recorded before the bound still reads.
 */
export const memoryWindowRequestSchema = z
  .number()
  .int("memory window Ω must be a whole number")
  .min(1, "memory window Ω must be at least 1 (or null for no window)")
  .max(MAX_MEMORY_WINDOW, `memory window Ω must be at most ${MAX_MEMORY_WINDOW} (or null for no window): it counts reflections, one per failed trial`)
  .nullable();

/**
 * How the episodic memory is kept small (docs/decisions/0018-template-library.md):
 * - `window` (default, today's behaviour): the memory window Ω prunes the oldest reflections;
 * - `summarize`: the window is not applied; before a trial whose reflections exceed `tokenBudget`
 *   tokens (lib/domain/tokenizer.ts, the Self-Reflection model's tokenizer), the Self-Reflection model
 *   merges them with the `summarizer` template into one reflection (event `memory-summary`).
 */
export const memoryManagementSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("window") }),
  z.object({ kind: z.literal("summarize"), tokenBudget: z.number().int().min(16).max(100_000), summarizer: promptTemplateSchema }),
]);
export type MemoryManagement = z.infer<typeof memoryManagementSchema>;

/**
 * The tree search's parameters (LATS, Zhou et al. 2024 §4 and Table 7): how many children an
 * expansion samples (n), the UCT exploration weight (w) and the temperature of the Actor's samples
 * (they must differ, so a sampling temperature is used whatever the Actor's own is). The number of
 * iterations is the run's trial budget (`maxTrials`) and the depth limit its steps per trial.
 */
export const latsSettingsSchema = z.object({
  /** n: children sampled per expansion (the paper: 5 for HotpotQA). */
  children: z.number().int().min(1).max(10).default(3),
  /** w: UCT's exploration weight (the paper: 1). */
  exploration: z.number().min(0).max(10).default(1),
  /** Sampling temperature of the expansion's Actor calls (the paper samples at 1). */
  sampleTemperature: z.number().min(0).max(2).default(1),
});
export type LatsSettings = z.infer<typeof latsSettingsSchema>;
/** LATS settings when a run gives none. */
export const DEFAULT_LATS_SETTINGS: LatsSettings = latsSettingsSchema.parse({});

/** The most feedback → refine rounds a Self-Refine trial may be given (the paper stops at 4 iterations, §3). */
export const MAX_REFINE_ROUNDS = 10;

/** Self-Refine's rounds per trial in a run config or a request: a whole number 1–{@link MAX_REFINE_ROUNDS}. */
export const refineRoundsSchema = z
  .number()
  .int("refine rounds must be a whole number")
  .min(1, "refine rounds must be at least 1")
  .max(MAX_REFINE_ROUNDS, `refine rounds must be at most ${MAX_REFINE_ROUNDS}`);

/** Where a run pauses by itself. Every kind defaults to off. */
export const breakpointsSchema = z.object({
  /** Pause right after each `reflection-end`, before the next trial starts. */
  afterReflection: z.boolean().default(false),
  /** Pause after each step's observation. */
  afterObservation: z.boolean().default(false),
  /** Pause after each trial's evaluation (before any reflection). */
  afterEvaluation: z.boolean().default(false),
  /** Pause before every model call of these roles (the call is made on resume). */
  beforeModelCall: z
    .object({ actor: z.boolean().default(false), reflector: z.boolean().default(false) })
    .default({ actor: false, reflector: false }),
});
export type Breakpoints = z.infer<typeof breakpointsSchema>;
/** Breakpoints as a caller may give them: every kind optional (off when absent). */
export type BreakpointsInput = z.input<typeof breakpointsSchema>;
/** No breakpoints at all. */
export const NO_BREAKPOINTS: Breakpoints = breakpointsSchema.parse({});

/**
 * Everything that determines a run, snapshotted into its `run-start` event.
 * The task itself is copied in (`task`), so a run never depends on the file
 * it was imported from.
 */
export const runConfigSchema = z.object({
  environment: environmentIdSchema,
  /** Name of the task set the task came from (`builtin` or an uploaded file name). */
  taskSetName: z.string().min(1),
  taskId: z.string().min(1),
  /** The task as JSON; validated by the environment family's own task schema. */
  task: z.record(z.string(), z.unknown()),
  strategy: strategySchema,
  /** Memory window Ω: how many of the newest reflections the Actor sees; `null` = unbounded. */
  memoryWindow: z.number().int().positive().nullable().default(DEFAULT_MEMORY_WINDOW),
  /** Trial budget; the run stops at the first success. */
  maxTrials: z.number().int().min(1).max(50).default(5),
  /** Actor steps per trial before the trial is halted (HotpotQA reference: 6). */
  maxStepsPerTrial: z.number().int().min(1).max(100).default(6),
  /**
   * Model and settings per role. `evaluator` is set only for families whose Evaluator is a model
   * (the `open` family's LLM judge); the run-config factory fills the family default there when a
   * request gives none. Absent elsewhere (configs recorded before it are unchanged).
   */
  models: z.object({ actor: modelSettingsSchema, reflector: modelSettingsSchema, evaluator: modelSettingsSchema.optional() }),
  /** `evaluator`: the judge template of a family whose Evaluator is a model (`open`); absent = the family's built-in judge template. */
  templates: z.object({
    actor: promptTemplateSchema,
    reflector: promptTemplateSchema,
    evaluator: promptTemplateSchema.optional(),
    /** `value`: the value prompt of a tree-search method (LATS, lib/domain/lats-value.ts); absent = its default. */
    value: promptTemplateSchema.optional(),
    /** Self-Refine's feedback template (method descriptor `trial.refine`); absent = the family's default (lib/domain/self-refine.ts). */
    feedback: promptTemplateSchema.optional(),
    /** Self-Refine's refine template; absent = the family's default. */
    refine: promptTemplateSchema.optional(),
  }),
  /** Window or summarise; see {@link memoryManagementSchema}. Absent = `window` (so configs recorded before it are unchanged). */
  memoryManagement: memoryManagementSchema.optional(),
  breakpoints: breakpointsSchema.default({
    afterReflection: false,
    afterObservation: false,
    afterEvaluation: false,
    beforeModelCall: { actor: false, reflector: false },
  }),
  seed: z.number().int().default(0),
  /**
   * How the root branch's model calls use the response cache: `live` always calls
   * the model; `recorded` serves a call identical to one already made (same
   * provider, model, settings and messages) from the cache. Experiments use
   * `recorded`, so arms that make the same trial-1 calls make them once.
   */
  replayMode: z.enum(["live", "recorded"]).default("live"),
  /**
   * Limits which recorded responses the run's calls (and its forks' and replays')
   * may be served: only those recorded under the same scope. An experiment's runs
   * use the experiment's id, so its arms share identical calls with each other but
   * a new experiment samples the model afresh. Null: the database-wide cache.
   */
  cacheScope: z.string().min(1).nullable().default(null),
  /**
   * Set on runs imported from the authors' published logs (lib/domain/provenance.ts):
   * such runs are read-only (fork to continue). Null for every run made here.
   */
  provenance: provenanceSchema.nullable().default(null),
  /** Spend limit of the run (USD and/or tokens; lib/domain/budget.ts). Absent or null = none; raised by `budget-edit`. */
  budget: budgetSchema.nullable().optional(),
  /** Stop before the trial budget when reflections repeat or a cost ceiling is reached (lib/domain/adaptive-trials.ts). */
  adaptiveTrials: adaptiveTrialsSchema.nullable().optional(),
  /** Carry the task's reflections from a memory store into trial 1 (lib/domain/memory-store.ts). */
  warmStart: warmStartSchema.nullable().optional(),
  /** Write each reflection of the run into a memory store. */
  writeMemory: writeMemorySchema.nullable().optional(),
  /** ExpeL: the memory store whose insights the Actor prompt carries from trial 1 on (lib/domain/insights.ts). */
  insights: insightsOptionSchema.nullable().optional(),
  /** Tree-search parameters of a `tree-search` method (LATS); absent elsewhere, or {@link DEFAULT_LATS_SETTINGS}. */
  lats: latsSettingsSchema.optional(),
  /** Feedback → refine rounds per trial of a refining method (Self-Refine's k); absent = the method's `trial.refine.maxRounds`. */
  refineRounds: refineRoundsSchema.optional(),
});
export type RunConfig = z.infer<typeof runConfigSchema>;
