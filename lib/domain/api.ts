import { insightsOptionSchema } from "./insights";
import { z } from "zod";
import { breakpointsSchema, environmentIdSchema, latsSettingsSchema, memoryWindowRequestSchema, modelIdSchema, refineRoundsSchema, roleModelsRequestSchema, strategySchema } from "./config";
import { memoryItemSchema, runEventSchema } from "./events";
import { callActivitySchema, runStatusSchema } from "./status";
import { budgetSchema } from "./budget";
import { adaptiveTrialsSchema } from "./adaptive-trials";
import { warmStartSchema, writeMemorySchema } from "./memory-store";
import { memoryManagementRequestSchema, templateVersionChoiceSchema } from "./template-library";
import { templateTextSchema } from "./template-check";

/**
 * HTTP contract between lib/query (client) and app/api (server). Both sides
 * parse with these schemas. Routes (all JSON unless noted):
 *
 * - `GET  /api/models` → {@link modelsResponseSchema}
 * - `GET  /api/environments` → {@link environmentsResponseSchema}
 * - `GET  /api/tasks?env=qa&taskSet=<id|builtin>&offset=0&limit=1000` → {@link taskListResponseSchema} (a page: at most 1,000 tasks)
 * - `GET  /api/task-sets` → {@link taskSetListResponseSchema}
 * - `POST /api/task-sets` body {@link uploadTaskSetRequestSchema} → {@link taskListResponseSchema} (its first page)
 * - `DELETE /api/task-sets/:taskSetId` → 204 (runs keep the tasks they copied)
 * - `GET  /api/runs` → {@link runListResponseSchema}
 * - `POST /api/runs` body {@link createRunRequestSchema} → `{ runId }`
 * - `GET  /api/runs/:runId` → {@link runDetailResponseSchema}
 * - `GET  /api/runs/:runId/events?after=<seq>[&limit=<n>]` → {@link eventPageResponseSchema}: a page of at most
 *   `limit` events ({@link EVENT_PAGE_DEFAULT} by default, at most {@link EVENT_PAGE_MAX}); while `more`, read the
 *   next page with `after=<nextAfter>`
 * - `GET  /api/runs/:runId/stream?after=<seq>` → `text/event-stream`; each message has
 *   `id: <seq>`, `event: run-event`, `data: <RunEvent JSON>`; plus `event: status` with
 *   `{ status: RunStatus, lastSeq, activeCall }` JSON whenever the status or the call in flight
 *   changes (`lastSeq`: the branch's last event seq the status was computed at; clients ignore a
 *   status older than what they have; `activeCall`: {@link callActivitySchema} or null); plus
 *   `event: live-call` with a {@link liveCallMessageSchema} (transient token deltas). Honors `Last-Event-ID`.
 * - `POST /api/runs/:runId/pause` | `/resume` (body optional `{ step: true }`: run one action, then pause) | `/cancel` → {@link runDetailResponseSchema};
 *   pause and cancel append a request event and answer at once (status `pausing` / `cancelling`
 *   while a worker finishes its step; a branch no worker holds is paused or cancelled at once)
 * - `POST /api/runs/:runId/edits` body {@link editRequestSchema} → {@link runDetailResponseSchema}
 * - `POST /api/runs/:runId/breakpoints` body {@link breakpointsSchema} (kinds left out are off) → {@link runDetailResponseSchema}
 * - `GET  /api/runs/:runId/branches` → {@link branchListResponseSchema}
 * - `POST /api/runs/:runId/fork` body {@link forkRequestSchema} → `{ branchId }`
 *
 * The per-run routes (events, stream, pause, resume, edits, breakpoints) act on
 * the root branch unless `?branch=<id>` names another branch of the run.
 *
 * Errors: status 4xx/5xx with body {@link apiErrorSchema}.
 */

/** A branch's status: see lib/domain/status.ts (one function, log + lease). */
export { runStatusSchema, type RunStatus } from "./status";

export const apiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ApiError = z.infer<typeof apiErrorSchema>;

export const modelOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** The scripted offline stand-in; the UI must label it as such. */
  scripted: z.boolean(),
  /** The provider (`demo`, `openai`, `anthropic`, `google`, `ollama`, `compatible`); absent from older servers. */
  provider: z.string().optional(),
});
export const modelsResponseSchema = z.object({
  models: z.array(modelOptionSchema),
  defaultModelId: z.string(),
  /** Providers with credentials configured on the server (names only, never keys). */
  configuredProviders: z.array(z.string()),
});
export type ModelsResponse = z.infer<typeof modelsResponseSchema>;

/** A task family the server offers, with how it is judged (for honest labels in the UI). */
export const environmentOptionSchema = z.object({
  id: environmentIdSchema,
  label: z.string(),
  /** Standard dataset formats the family imports (help text for the upload button). */
  importFormats: z.string(),
  defaultMaxStepsPerTrial: z.number().int().positive(),
  /** A step budget the family always uses, whatever the request says (code: 2); null when the budget is free. */
  fixedStepsPerTrial: z.number().int().positive().nullable(),
  /** The family's memory window Ω when the request gives none (code: 1; others: 3). */
  defaultMemoryWindow: z.number().int().positive().nullable(),
  /** The memory strategies this family can run (e.g. the CoT variants are QA-only). */
  supportedStrategies: z.array(strategySchema),
  /**
   * The `{name}` placeholders the engine fills in this family's Actor and
   * Self-Reflection templates (any other `{name}` reaches the model as literal text); `optimiser`: the
   * optimiser meta-prompt's (lib/domain/optimiser/meta-prompt.ts; absent from older servers).
   */
  templateVariables: z.object({ actor: z.array(z.string()), reflector: z.array(z.string()), optimiser: z.array(z.string()).optional() }),
  /** The placeholders every Actor / Self-Reflection template of the family must use (lib/domain/template-check.ts); absent from older servers. */
  requiredTemplateVariables: z.object({ actor: z.array(z.string()), reflector: z.array(z.string()) }).optional(),
  /** True when the family's Evaluator is a model (an LLM judge): forms then offer an Evaluator model. */
  evaluatorUsesModel: z.boolean().optional(),
});
export const environmentsResponseSchema = z.object({ environments: z.array(environmentOptionSchema) });
export type EnvironmentsResponse = z.infer<typeof environmentsResponseSchema>;

export const taskSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  reference: z.string().nullable(),
});
export const taskListResponseSchema = z.object({
  taskSet: z.object({ id: z.string(), name: z.string(), environment: environmentIdSchema }),
  tasks: z.array(taskSummarySchema),
  /** Lines or records that could not be read, with what was wrong; the rest loaded (the first 100 at most). */
  problems: z.array(z.string()),
  /** Tasks in the whole set; `tasks` is the page from `offset` (`GET /api/tasks` answers at most `MAX_TASKS_PAGE`, lib/domain/workload-limits.ts). */
  total: z.number().int().nonnegative().optional(),
  /** Index of `tasks[0]` in the set. */
  offset: z.number().int().nonnegative().optional(),
});
export type TaskListResponse = z.infer<typeof taskListResponseSchema>;

/** The imported (non-built-in) task sets of all families, newest first. */
export const taskSetListResponseSchema = z.object({
  taskSets: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      environment: environmentIdSchema,
      createdAt: z.string(),
      taskCount: z.number().int().nonnegative(),
    }),
  ),
});
export type TaskSetListResponse = z.infer<typeof taskSetListResponseSchema>;

/** Largest body of a task set upload, bytes: the 20 MB `content` plus room for the rest of the JSON. */
export const MAX_TASK_SET_BODY_BYTES = 20_000_000 + 64 * 1024;

export const uploadTaskSetRequestSchema = z.object({
  environment: environmentIdSchema,
  /** File name as the user picked it. */
  name: z.string().min(1).max(200),
  /** File content as text (JSON for HotpotQA), or base64 of the bytes (e.g. a `.jsonl.gz`); at most 20 MB. */
  content: z.string().min(1).max(20_000_000, "the file is larger than 20 MB; split it into smaller task sets"),
  /** `base64` when `content` is the file's bytes in base64 (gzip files are then gunzipped on the server). Default `text`. */
  encoding: z.enum(["text", "base64"]).default("text"),
});

export const createRunRequestSchema = z.object({
  environment: environmentIdSchema,
  /** `builtin` or an uploaded task set id. */
  taskSet: z.string().min(1),
  taskId: z.string().min(1),
  strategy: strategySchema,
  modelId: modelIdSchema,
  maxTrials: z.number().int().min(1).max(50).optional(),
  memoryWindow: memoryWindowRequestSchema.optional(),
  maxStepsPerTrial: z.number().int().min(1).max(100).optional(),
  /** Self-Refine's feedback → refine rounds per trial (RunConfig.refineRounds); ignored by methods that do not refine. */
  refineRounds: refineRoundsSchema.optional(),
  breakpoints: breakpointsSchema.optional(),
  /** The Self-Reflection's model; default `modelId`. */
  reflectorModelId: modelIdSchema.optional(),
  /**
   * Per-role model and settings: a role's `modelId` here wins over `reflectorModelId` and
   * `modelId`; its temperature / max output tokens replace the family's reference defaults.
   */
  models: roleModelsRequestSchema.optional(),
  /** Template texts replacing the family's defaults for the strategy (an experiment arm's). */
  templates: z.object({ actor: templateTextSchema.optional(), reflector: templateTextSchema.optional() }).optional(),
  /** Accept texts in `templates` with placeholders the family does not fill or without a required one (lib/domain/template-check.ts). */
  allowUnknown: z.boolean().optional(),
  /**
   * Template library versions per role (a version id `tv-…`, `templateId@label`, `templateId@v<n>`;
   * lib/domain/template-library.ts), resolved on the server into the config's templates (with their
   * `versionId`). A role given both here and in `templates` takes the text of `templates`.
   */
  templateVersions: templateVersionChoiceSchema.optional(),
  /** Window (default) or summarise the reflections. */
  memoryManagement: memoryManagementRequestSchema.optional(),
  /** How the run's calls use the response cache (RunConfig.replayMode); default `live`. */
  replayMode: z.enum(["live", "recorded"]).optional(),
  /** RunConfig.cacheScope: recorded responses are shared only within this scope (an experiment's id). */
  cacheScope: z.string().min(1).optional(),
  /** Spend limit (USD and/or tokens), lib/domain/budget.ts. */
  budget: budgetSchema.nullable().optional(),
  /** Stop early on repeated reflections or a per-task cost ceiling, lib/domain/adaptive-trials.ts. */
  adaptiveTrials: adaptiveTrialsSchema.nullable().optional(),
  /** Carry the task's reflections from a memory store into trial 1, lib/domain/memory-store.ts. */
  warmStart: warmStartSchema.nullable().optional(),
  /** Write the run's reflections to a memory store. */
  writeMemory: writeMemorySchema.nullable().optional(),
  /** ExpeL: carry the insights of this memory store into the Actor prompt from trial 1 on, lib/domain/insights.ts. */
  insights: insightsOptionSchema.nullable().optional(),
  /** Tree-search parameters of a LATS run (RunConfig.lats); a field left out takes its default. Ignored by other methods. */
  lats: latsSettingsSchema.partial().optional(),
});
/** A create-run request as a caller may write it (breakpoint kinds left out are off). */
export type CreateRunRequest = z.input<typeof createRunRequestSchema>;

export const runSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  environment: environmentIdSchema,
  taskId: z.string(),
  title: z.string(),
  strategy: strategySchema,
  modelId: z.string(),
  status: runStatusSchema,
  /** The model call a worker is waiting on now (with its start time), or null. */
  activeCall: callActivitySchema.nullable().default(null),
  /** Where the task takes place (household: the opening room text), else null. */
  setting: z.string().nullable().default(null),
  /** Trials finished so far. */
  trials: z.number().int().nonnegative(),
  outcome: z.enum(["success", "failure", "cancelled"]).nullable(),
  /** The account that created the run (shared mode with sign-in; lib/server/ownership.ts); absent or null when it has none. */
  ownerUserId: z.string().nullable().optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;
export const runListResponseSchema = z.object({ runs: z.array(runSummarySchema) });

export const runDetailResponseSchema = z.object({
  run: runSummarySchema.extend({
    rootBranchId: z.string(),
    /** The experiment cell the run belongs to (lib/domain/experiment.ts), or null for a run of its own. */
    experiment: z.object({ id: z.string(), taskId: z.string(), arm: z.string() }).nullable().default(null),
  }),
});
export type RunDetailResponse = z.infer<typeof runDetailResponseSchema>;

/** Events in one page of `GET /api/runs/:runId/events` when the request names no `limit`. */
export const EVENT_PAGE_DEFAULT = 1000;
/** The largest `limit` a page of `GET /api/runs/:runId/events` accepts (a larger one is refused with 400). */
export const EVENT_PAGE_MAX = 5000;

/** A query value written as decimal digits only (so `0x10`, ` `, `1e3` and an empty value are refused, not read as numbers). */
const decimalParam = (name: string) => z.string().regex(/^\d+$/, `${name} must be a whole number written in digits`).transform(Number);

/** The query of `GET /api/runs/:runId/events`: events with `seq > after`, at most `limit` of them. */
export const eventPageQuerySchema = z.object({
  after: decimalParam("after").pipe(z.number().int().nonnegative()).default(0),
  limit: decimalParam("limit")
    .pipe(
      z
        .number()
        .int()
        .min(1, "limit must be at least 1")
        .max(EVENT_PAGE_MAX, `limit must be at most ${EVENT_PAGE_MAX}: read further pages with after=<nextAfter>`),
    )
    .default(EVENT_PAGE_DEFAULT),
});

export const eventPageResponseSchema = z.object({
  events: z.array(runEventSchema),
  status: runStatusSchema,
  /** The model call a worker is waiting on now, or null. */
  activeCall: callActivitySchema.nullable().default(null),
  /** The branch's newest seq when the page was read (the status was computed at it). */
  lastSeq: z.number().int().nonnegative(),
  /** The `after` of the next page: the seq of the page's last event (the request's `after` when the page is empty). */
  nextAfter: z.number().int().nonnegative().default(0),
  /** More events followed this page when it was read: read again from `nextAfter`. */
  more: z.boolean().default(false),
});
export type EventPageResponse = z.infer<typeof eventPageResponseSchema>;

/** Edits allowed while a run is paused; each is appended as an edit event with old and new values. */
/**
 * Sent with every edit: the seq of the newest event the editor saw when the edit was made
 * (`RunState.lastSeq`). When the branch has events after it, the edit is refused with 409
 * `stale-edit` naming what changed, instead of silently overwriting another client's edit.
 * Optional only so older clients keep working (they get last-writer-wins); the UI always sends it.
 */
const baseSeqSchema = z.number().int().nonnegative().optional();

/**
 * The longest text a person may write into a reflection, a memory item or the next action, in
 * characters (UTF-16 units). The text goes into every later prompt of the run and into every step's
 * recorded prompt: a 10 MB reflection made each Actor step take 30 s of server time. The paper's
 * reflections are a few hundred characters.
 */
export const MAX_EDIT_TEXT_CHARS = 16_384;

/** Most items an edited episodic memory may hold (the memory window Ω is at most 100). */
export const MAX_EDIT_MEMORY_ITEMS = 1_000;

const editText = (what: string, empty: string) =>
  z
    .string()
    .trim()
    .min(1, empty)
    .max(MAX_EDIT_TEXT_CHARS, { error: (issue) => `${what} is at most ${MAX_EDIT_TEXT_CHARS} characters (this one is ${typeof issue.input === "string" ? issue.input.length : "longer"}); shorten it` });

export const editRequestSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("reflection"),
    reflectionEventId: z.string().min(1),
    text: editText("a reflection", "a reflection cannot be empty; delete it from the memory instead"),
    note: z.string().max(500).nullable().optional(),
    baseSeq: baseSeqSchema,
  }),
  z.object({
    /** The whole episodic memory: add, delete, reorder or clear items. */
    kind: z.literal("memory"),
    memory: z
      .array(memoryItemSchema.extend({ text: editText("a memory item", "a memory item cannot be empty; delete it instead") }))
      .max(MAX_EDIT_MEMORY_ITEMS, `an edited memory holds at most ${MAX_EDIT_MEMORY_ITEMS} items`),
    note: z.string().max(500).nullable().optional(),
    baseSeq: baseSeqSchema,
  }),
  z.object({
    /** A role's prompt template text (its `{placeholders}` are filled as before). */
    kind: z.literal("prompt"),
    role: z.enum(["actor", "reflector"]),
    text: templateTextSchema,
    /** Accept placeholders the family does not fill, or a text without a required one (lib/domain/template-check.ts). */
    allowUnknown: z.boolean().optional(),
    note: z.string().max(500).nullable().optional(),
    baseSeq: baseSeqSchema,
    /**
     * Use a saved library version instead of `text` (a version reference, lib/domain/template-library.ts);
     * its text replaces `text`. For "same checkpoint, template B" forks.
     */
    versionId: z.string().min(1).optional(),
    /** Also save `text` as a new version of the run's current template for the role (message required); the edit records its id. */
    saveAsVersion: z.object({ message: z.string().max(500) }).optional(),
  }),
  z.object({
    /** A role's model and sampling settings; fields left out keep their value. */
    kind: z.literal("model"),
    role: z.enum(["actor", "reflector"]),
    modelId: modelIdSchema.optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().positive().max(8192).optional(),
    note: z.string().max(500).nullable().optional(),
    baseSeq: baseSeqSchema,
  }),
  z.object({
    /** The Actor's next action, written by a person (injects a correct or a wrong step). */
    kind: z.literal("action"),
    text: editText("an action", "write the action, e.g. Search[Dunmere]"),
    note: z.string().max(500).nullable().optional(),
    baseSeq: baseSeqSchema,
  }),
  z.object({
    /** A tree-search run (LATS): later selections start at this search-tree node, so the branch searches only its subtree. */
    kind: z.literal("tree-focus"),
    node: z.string().min(1).max(64),
    note: z.string().max(500).nullable().optional(),
    baseSeq: baseSeqSchema,
  }),
]);
export type EditRequest = z.infer<typeof editRequestSchema>;

/** One branch of a run with its own status (DESIGN.md §1 branches). */
export const branchSummarySchema = z.object({
  id: z.string(),
  parentBranchId: z.string().nullable(),
  /** The parent's last event this branch sees; null for the root branch. */
  forkSeq: z.number().int().nullable(),
  createdAt: z.string(),
  status: runStatusSchema,
  replayMode: z.enum(["live", "recorded"]),
  /** Why the branch exists: `root`, or the fork's reason. */
  reason: z.enum(["root", "edit", "replay"]),
  trials: z.number().int().nonnegative(),
  outcome: z.enum(["success", "failure", "cancelled"]).nullable(),
  /** Model calls made on this branch itself (not inherited), live and served from the cache. */
  liveCalls: z.number().int().nonnegative(),
  cachedCalls: z.number().int().nonnegative(),
});
export type BranchSummary = z.infer<typeof branchSummarySchema>;
export const branchListResponseSchema = z.object({ branches: z.array(branchSummarySchema) });

/** Fork a branch at a checkpoint (or seq 1) into a new branch, with optional edits applied first. */
export const forkRequestSchema = z.object({
  atSeq: z.number().int().positive(),
  fromBranchId: z.string().nullable().optional(),
  replay: z.enum(["live", "recorded"]).default("recorded"),
  edits: z.array(editRequestSchema).max(20).optional(),
  /** Breakpoints for the new branch (it inherits its parent's otherwise). */
  breakpoints: breakpointsSchema.optional(),
  /** Write the new branch's reflections to this store. Not inherited: without it a fork writes to no memory store. */
  writeMemory: writeMemorySchema.nullable().optional(),
});
export type ForkRequest = z.infer<typeof forkRequestSchema>;
