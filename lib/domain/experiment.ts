import { insightsOptionSchema } from "./insights";
import { z } from "zod";
import { templateTextSchema } from "./template-check";
import { environmentIdSchema, memoryWindowRequestSchema, modelIdSchema, refineRoundsSchema, roleModelsRequestSchema, strategySchema } from "./config";
import { provenanceSchema } from "./provenance";
import { budgetSchema } from "./budget";
import { adaptiveTrialsSchema } from "./adaptive-trials";
import { warmStartSchema, writeMemorySchema } from "./memory-store";
import { runStatusSchema } from "./status";
import { memoryManagementRequestSchema, templateVersionChoiceSchema } from "./template-library";
import { pairedComparisonSchema } from "./experiment-tests";

/**
 * Experiments: a task set (or a subset of its tasks) × arms × repetitions × trials, the
 * paper's unit of comparison (success rate by trial, Reflexion Fig. 3–4). Each
 * (task, arm, repetition) has exactly one run; runs execute on the worker pool and
 * use the response cache in `recorded` mode, scoped to the repetition, so arms that make
 * the same call in one repetition (e.g. `none` and `reflexion` in trial 1) make it once,
 * and repetition r of a prompt replays the r-th response (docs/decisions/0031).
 *
 * HTTP (app/api/experiments):
 * - `GET  /api/experiments` → {@link experimentListResponseSchema}
 * - `POST /api/experiments` body {@link experimentDefinitionSchema} → `{ experimentId }` (201)
 * - `GET  /api/experiments/:id` → {@link experimentSummarySchema}
 * - `POST /api/experiments/:id/cancel` | `/resume` → {@link experimentSummarySchema}
 * - `GET  /api/experiments/:id/export?format=csv|json|events|md|latex|svg` → a download
 * - `GET  /api/experiments/:id/compare?a=<label>&b=<label>` → the paired tests of two arms
 */

/** A labelled run configuration. Fields left out take the experiment's (trials) or the family's defaults. */
export const armSchema = z.object({
  /** Shown in curves, grids and exports; unique within an experiment. */
  label: z.string().trim().min(1).max(60),
  strategy: strategySchema,
  /** The Actor's model (and the Self-Reflection's, unless `reflectorModelId`). */
  modelId: modelIdSchema,
  reflectorModelId: modelIdSchema.optional(),
  /** Per-role model and settings (Actor, Self-Reflection, Evaluator where it is a model); a role's `modelId` wins over the two above. */
  models: roleModelsRequestSchema.optional(),
  /** Memory window Ω; null = unbounded. */
  memoryWindow: memoryWindowRequestSchema.optional(),
  maxStepsPerTrial: z.number().int().min(1).max(100).optional(),
  /** Self-Refine's feedback → refine rounds per trial for this arm (a method that refines; ignored by the others). */
  refineRounds: refineRoundsSchema.optional(),
  /** This arm's trial budget; default the experiment's `maxTrials`. */
  maxTrials: z.number().int().min(1).max(50).optional(),
  /** Prompt template texts replacing the family's for this arm (placeholders as in the Steer tab). */
  templates: z.object({ actor: templateTextSchema.optional(), reflector: templateTextSchema.optional() }).optional(),
  /** Accept texts in `templates` with placeholders the family does not fill or without a required one (lib/domain/template-check.ts). */
  allowUnknown: z.boolean().optional(),
  /** Template library versions per role (version id or `templateId@label`); a role's text in `templates` wins over its version here. */
  templateVersions: templateVersionChoiceSchema.optional(),
  /** Window (default) or summarise the reflections. */
  memoryManagement: memoryManagementRequestSchema.optional(),
  /** Each of this arm's runs gets this budget (USD and/or tokens); wins over the experiment's split budget. */
  budget: budgetSchema.nullable().optional(),
  /** Adaptive trials for this arm's runs (repeated reflections, per-task cost ceiling). */
  adaptiveTrials: adaptiveTrialsSchema.nullable().optional(),
  /** Warm start this arm's runs from a memory store (compare a cold arm with a warm one). */
  warmStart: warmStartSchema.nullable().optional(),
  /** Write this arm's reflections into a memory store. */
  writeMemory: writeMemorySchema.nullable().optional(),
  /** ExpeL: the memory store whose insights this arm's runs carry from trial 1 on (lib/domain/insights.ts). */
  insights: insightsOptionSchema.nullable().optional(),
  /** Sampling temperature of every role of this arm that `models` gives none (default 0, the paper's). */
  temperature: z.number().min(0).max(2).optional(),
  /**
   * Sampling seed, sent to providers that take one (OpenAI-protocol, Gemini); repetition r sends
   * `seed + r − 1`. With repeats and no seed, repetition r sends r − 1. The demo model reads it too
   * (lib/domain/demo-variation.ts).
   */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type Arm = z.infer<typeof armSchema>;
export type ArmInput = z.input<typeof armSchema>;

/**
 * The tasks an experiment was started on, pinned by content: `hash` is the SHA-256 (hex) of the
 * canonical JSON (RFC 8785) of the tasks in `taskIds` order, `taskHashes` the first 16 hex digits of
 * each task's own hash. `resume` recomputes them and refuses a task set that changed (lib/domain/dataset-pin.ts).
 */
export const datasetPinSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  tasks: z.number().int().nonnegative(),
  taskHashes: z.record(z.string(), z.string()),
});
export type DatasetPin = z.infer<typeof datasetPinSchema>;

/** What a person (or `cli experiment run`) asks for. */
export const experimentDefinitionSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    environment: environmentIdSchema,
    /** `builtin` or an uploaded task set id. */
    taskSet: z.string().min(1),
    /** The tasks to run; empty or left out = every task of the set. */
    taskIds: z.array(z.string().min(1)).max(2_000).default([]),
    arms: z.array(armSchema).min(1).max(8),
    /** Trial budget of every arm that does not set its own (the run stops at its first success). */
    maxTrials: z.number().int().min(1).max(50).default(5),
    /** Runs of this experiment in flight at once (the CLI's worker pool size). */
    concurrency: z.number().int().min(1).max(32).default(4),
    /**
     * The experiment's budget, split evenly over its runs (lib/domain/budget.ts
     * `splitBudget`: each of the tasks × arms runs gets budget / runs) unless an arm sets its own.
     */
    budget: budgetSchema.nullable().optional(),
    /** Repetitions R of every (task, arm): each is its own run, sampled afresh (seeded per repetition). Absent = 1 ({@link repeatsOf}). */
    repeats: z.number().int().min(1).max(20).optional(),
    /** The task set pinned at the start (set by the server; see {@link datasetPinSchema}). */
    dataset: datasetPinSchema.optional(),
    /**
     * The response-cache scope of the runs instead of the experiment's id: experiments that share one
     * replay each other's recorded calls (repetition r as `<scope>/r<r>`), so a re-run of unchanged
     * arms makes no model call (`cli check`, lib/server/ci-check.ts). Absent = the experiment's own.
     */
    cacheScope: z.string().trim().min(1).max(200).optional(),
    /**
     * Set on the experiments a reflective optimisation (`optimisation`, its `opt-…` id) or a template
     * check (`check`, the config's name) creates for its own evaluations. Lists hide them unless asked
     * (`GET /api/experiments?all=1`, `cli experiment list --all`), so they do not bury people's own.
     */
    origin: z.object({ kind: z.enum(["optimisation", "check"]), id: z.string().trim().min(1).max(200) }).optional(),
  })
  .refine((definition) => new Set(definition.arms.map((arm) => arm.label)).size === definition.arms.length, {
    message: "arm labels must be unique",
    path: ["arms"],
  });
export type ExperimentDefinition = z.infer<typeof experimentDefinitionSchema>;

/** An experiment's repetitions R (1 when its definition predates repeats). */
export function repeatsOf(definition: Pick<ExperimentDefinition, "repeats">): number {
  return definition.repeats ?? 1;
}
export type ExperimentDefinitionInput = z.input<typeof experimentDefinitionSchema>;

/**
 * A definition as stored and as read back: the rules of {@link experimentDefinitionSchema} without
 * its caps on how many tasks may be asked for (lib/domain/workload-limits.ts; checked before anything
 * is stored), so a row stored under other limits is still read, shown and cancelled whole.
 */
export const storedExperimentDefinitionSchema = experimentDefinitionSchema.safeExtend({ taskIds: z.array(z.string().min(1)).default([]) });

/** A stored experiment: its definition with the task ids resolved. */
export const experimentRecordSchema = z.object({
  id: z.string(),
  /** ISO-8601. */
  createdAt: z.string(),
  definition: storedExperimentDefinitionSchema,
  /** The task set's name (e.g. "Built-in" or the uploaded file's). */
  taskSetName: z.string(),
  /** Set on experiments imported from the authors' published logs; null otherwise. */
  provenance: provenanceSchema.nullable().default(null),
});
export type ExperimentRecord = z.infer<typeof experimentRecordSchema>;

/** One (task, arm, repetition) cell: its run, where it stands, and when it first succeeded. */
export const experimentCellSchema = z.object({
  taskId: z.string(),
  arm: z.string(),
  /** 1-based; 1 for every cell of an experiment without repeats. */
  repetition: z.number().int().positive().optional(),
  runId: z.string(),
  status: runStatusSchema,
  /** The trial of the first success (1-based), or null if not (yet) solved. */
  solvedAtTrial: z.number().int().positive().nullable(),
  outcome: z.enum(["success", "failure", "cancelled"]).nullable(),
  trials: z.number().int().nonnegative(),
  /** Code: the last trial passed its internal tests but failed the hidden ones. */
  falsePositive: z.boolean(),
  /** Household: trials halted by the step limit or a loop. */
  halts: z.number().int().nonnegative(),
});
export type ExperimentCell = z.infer<typeof experimentCellSchema>;

const tokensSchema = z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() });

/** Per-arm results, from run summaries (never from full logs). Costs are USD, null when a call's price is unknown. */
export const armResultSchema = z.object({
  label: z.string(),
  strategy: strategySchema,
  modelId: z.string(),
  tasks: z.number().int().nonnegative(),
  /** The arm's trial budget T. */
  trials: z.number().int().positive(),
  /** Repetitions R of each task (the experiment's `repeats`). */
  repeats: z.number().int().positive().optional(),
  /**
   * `successByTrial[k]`: tasks solved at or before trial k + 1 (cumulative, as in the paper's figures), the
   * mean over repetitions (a whole number with one repetition); length T.
   */
  successByTrial: z.array(z.number().nonnegative()),
  /**
   * 95 % interval of each `successByTrial[k]`, in the same units (tasks): Wilson's score interval with one
   * repetition, a bootstrap over tasks and repetitions with more (`intervalMethod`; lib/domain/experiment-intervals.ts).
   */
  successByTrialCI: z.array(z.tuple([z.number(), z.number()])).optional(),
  intervalMethod: z.enum(["wilson", "bootstrap"]).optional(),
  /** USD per solved run: the arm's cost over the runs solved by the last trial; null when none solved or unpriced. */
  costPerSolvedUsd: z.number().nonnegative().nullable().optional(),
  /** Code with repeats: pass@k over the final verdicts, k = 1 … R (Chen et al. 2021's unbiased estimator). */
  passAtK: z.array(z.object({ k: z.number().int().positive(), value: z.number().min(0).max(1) })).optional(),
  /** Runs that have ended (any outcome). */
  finished: z.number().int().nonnegative(),
  calls: z.object({ live: z.number().int().nonnegative(), cached: z.number().int().nonnegative() }),
  tokens: tokensSchema,
  costUsd: z.number().nonnegative().nullable(),
  /** Cost split by role: acting (Actor), evaluating (LLM judge; 0 for the built-in evaluators), reflecting (Self-Reflection). */
  costByRole: z.object({ acting: z.number().nonnegative().nullable(), evaluating: z.number().nonnegative().nullable(), reflecting: z.number().nonnegative().nullable() }),
  /** Mean cost of the solved runs up to their first success, USD; null when none solved or unpriced. */
  costToFirstSuccessUsd: z.number().nonnegative().nullable(),
  falsePositives: z.number().int().nonnegative(),
  halts: z.number().int().nonnegative(),
  /**
   * QA: `meanF1ByTrial[k]`, the mean F1 (hotpot_evaluate_v1, in [0, 1]) of the
   * arm's runs at trial k + 1 — a run that ended earlier counts with its last
   * trial's F1, as the success curve counts it solved; null where no run has a
   * recorded F1. Absent for other families and when no cell carries F1 (decision 0020).
   */
  meanF1ByTrial: z.array(z.number().min(0).max(1).nullable()).optional(),
  /**
   * Set when some of the arm's runs stopped on their budget: the last trial every run of the arm
   * reached (ended runs count as reaching T). The curve is complete only up to it, and drawn only so far.
   */
  trialsReached: z.number().int().nonnegative().optional(),
});
export type ArmResult = z.infer<typeof armResultSchema>;

/**
 * An experiment's status: `running`, `ended`, `cancelled`, or `stopped` — no run is left to work on
 * and some stopped on their budget (budget-exhausted runs do not run; continue with a larger budget).
 */
export const experimentStatusSchema = z.enum(["running", "ended", "cancelled", "stopped"]);
export type ExperimentStatus = z.infer<typeof experimentStatusSchema>;

/** The results view's data and the `--json` summary's source. */
export const experimentSummarySchema = z.object({
  experiment: experimentRecordSchema,
  status: experimentStatusSchema,
  progress: z.object({
    /** (task, arm) runs in all, and those that have ended. */
    total: z.number().int().nonnegative(),
    done: z.number().int().nonnegative(),
    /** Estimated ms until all end, from the pace so far; null before the first ends, after the last, or when stopped. */
    etaMs: z.number().nonnegative().nullable(),
    /** Runs stopped by their budget (status `budget-exhausted`); absent in summaries written before it was counted. */
    outOfBudget: z.number().int().nonnegative().optional(),
  }),
  arms: z.array(armResultSchema),
  cells: z.array(experimentCellSchema),
  /** Paired tests between every two arms (lib/domain/experiment-tests.ts). */
  tests: z.array(pairedComparisonSchema).optional(),
  /** Set when the stored experiment cannot be read whole: what is shown is what could be read. */
  damaged: z.string().optional(),
  /** The account that created the experiment (shared mode with sign-in; lib/server/ownership.ts); absent when it has none. */
  ownerUserId: z.string().nullable().optional(),
});
export type ExperimentSummary = z.infer<typeof experimentSummarySchema>;

/** `GET /api/experiments` rows. */
export const experimentListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  environment: environmentIdSchema,
  arms: z.array(z.string()),
  tasks: z.number().int().nonnegative(),
  status: experimentStatusSchema,
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** Set on experiments imported from the authors' published logs; null otherwise. */
  provenance: provenanceSchema.nullable().default(null),
  /** Set when the stored experiment cannot be read whole (what cannot be read, and what still works). */
  damaged: z.string().optional(),
  /** The optimisation or template check that made it (definition `origin`); absent for people's own. */
  origin: z.object({ kind: z.enum(["optimisation", "check"]), id: z.string() }).optional(),
});
export type ExperimentListItem = z.infer<typeof experimentListItemSchema>;
export const experimentListResponseSchema = z.object({ experiments: z.array(experimentListItemSchema) });

/**
 * The `--json` closing line of `cli experiment run|resume|show` (a contract scripts rely on):
 * `{"type":"experiment-summary","experimentId":…,"dataset":{"hash","tasks"},"repeats":R,"arms":[{"label","strategy","modelId","tasks","trials","repeats",
 * "successByTrial":[…],"successByTrialCI":[[lo,hi],…],"intervalMethod","calls":{"live","cached"},"tokens":{"input","output"},"costUsd","costPerSolvedUsd"
 * [,"meanF1ByTrial":[…]][,"passAtK":[{k,value}]]}],"tests":[{"a","b","metric","method","n","p","effect","ci":[lo,hi][,"aOnly","bOnly"],"differs"}]}`
 * (`meanF1ByTrial` for QA arms whose cells carry F1, decision 0020; `successByTrial` is the mean over
 * repetitions of the cumulative solved count and `successByTrialCI` its 95 % interval in the same units;
 * `tests` every pair of arms, decision 0031).
 */
export function experimentSummaryLine(summary: ExperimentSummary): string {
  const dataset = summary.experiment.definition.dataset;
  return JSON.stringify({
    type: "experiment-summary",
    experimentId: summary.experiment.id,
    ...(dataset ? { dataset: { hash: dataset.hash, tasks: dataset.tasks } } : {}),
    repeats: repeatsOf(summary.experiment.definition),
    arms: summary.arms.map((arm) => ({
      label: arm.label,
      strategy: arm.strategy,
      modelId: arm.modelId,
      tasks: arm.tasks,
      trials: arm.trials,
      repeats: arm.repeats ?? 1,
      successByTrial: arm.successByTrial,
      successByTrialCI: arm.successByTrialCI ?? [],
      ...(arm.intervalMethod === undefined ? {} : { intervalMethod: arm.intervalMethod }),
      calls: arm.calls,
      tokens: arm.tokens,
      costUsd: arm.costUsd,
      costPerSolvedUsd: arm.costPerSolvedUsd ?? null,
      ...(arm.meanF1ByTrial === undefined ? {} : { meanF1ByTrial: arm.meanF1ByTrial }),
      ...(arm.passAtK === undefined ? {} : { passAtK: arm.passAtK }),
    })),
    tests: summary.tests ?? [],
  });
}
