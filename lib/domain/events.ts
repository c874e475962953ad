// Over 400 lines: this is the event catalogue (DESIGN.md §1), one zod schema per event type in one
// discriminated union; splitting it would scatter the one contract every reader and writer shares.
import { z } from "zod";
import { breakpointsSchema, modelRoleSchema, modelSettingsSchema, promptTemplateSchema, runConfigSchema } from "./config";
import { hiddenTestReportSchema } from "./code-trial";
import { judgeVerdictSchema } from "./judge";
import { branchIdSchema, callIdSchema, eventIdSchema, runIdSchema } from "./ids";
import { budgetSchema } from "./budget";
import { stopReasonSchema } from "./adaptive-trials";
import { memorySourceSchema, memoryStoreNameSchema, writeMemorySchema } from "./memory-store";
import { treeEventSchemas } from "./tree-events";
import { insightEventSchemas } from "./insight-events";
import { actorSchema, type Actor } from "./actor";

/**
 * The event catalogue (DESIGN.md §1). A run is an append-only log of these;
 * every view is a projection of it. One zod schema per type; the TS types are
 * `z.infer` of the same schemas. Bump {@link EVENT_SCHEMA_VERSION} when a data
 * shape changes incompatibly.
 */
export const EVENT_SCHEMA_VERSION = 1;

const trial = z.number().int().positive();
const step = z.number().int().positive();

/** One item of the episodic memory. `id` is the `reflection-end` event id, or a fresh id for a hand-written entry. */
export const memoryItemSchema = z.object({
  id: z.string().min(1),
  text: z.string(),
  /** The trial whose failure produced it; `null` for a hand-written entry. */
  trial: trial.nullable(),
});
export type MemoryItem = z.infer<typeof memoryItemSchema>;

/** A chat message exactly as sent to the provider. */
export const chatMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A parsed Actor action. `type` is the verb (`Search`, `Lookup`, `Finish`, …). */
export const parsedActionSchema = z.object({ type: z.string(), argument: z.string() });
export type ParsedAction = z.infer<typeof parsedActionSchema>;

/** Who asked for a pause or cancel, for people reading the log. */
const intentSchema = z.object({
  /** Where the request came from: `web`, `cli`, `worker`, … */
  requestedBy: z.string().min(1),
  note: z.string().nullable().default(null),
});

/**
 * Token usage of one model call. `inputTokens` is the whole prompt (cached or not) and
 * `outputTokens` the completion. `cachedInputTokens` are the prompt tokens the provider
 * served from its prompt cache (Anthropic `cache_read_input_tokens`, OpenAI and compatible servers
 * `prompt_tokens_details.cached_tokens`; AI SDK 6 `usage.inputTokenDetails.cacheReadTokens`) and
 * `cacheWriteInputTokens` those written to it (Anthropic `cache_creation_input_tokens`,
 * `inputTokenDetails.cacheWriteTokens`); both are part of `inputTokens` and absent when the provider
 * reports nothing (older logs never have them).
 */
export const modelUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
  cacheWriteInputTokens: z.number().int().nonnegative().optional(),
});
export type ModelUsage = z.infer<typeof modelUsageSchema>;

export const eventDataSchemas = {
  "run-start": z.object({ config: runConfigSchema }),
  "branch-start": z.object({
    parentBranchId: branchIdSchema,
    /** The parent's last event this branch sees (a checkpoint, or 1 = the run's start). */
    forkSeq: z.number().int().positive(),
    reason: z.enum(["edit", "replay"]),
    /** `recorded`: unchanged model calls are served from the response cache; `live`: all calls go to the model. */
    replayMode: z.enum(["live", "recorded"]),
    /** Types of the edit events that follow on the new branch. */
    edits: z.array(z.string()),
    /**
     * The store this branch writes its reflections to. A fork does not inherit the run's
     * `writeMemory` (it is an experiment on a branch): absent or null = the fork writes nothing.
     */
    writeMemory: writeMemorySchema.nullable().optional(),
  }),
  "trial-start": z.object({
    trial,
    /** The reflections placed in the Actor's context, after the memory window. */
    memory: z.array(memoryItemSchema),
    /** Reflections in memory that the window Ω left out. */
    evicted: z.array(memoryItemSchema),
  }),
  "model-call-end": z.object({
    callId: callIdSchema,
    role: modelRoleSchema,
    trial,
    step: step.nullable(),
    settings: modelSettingsSchema,
    /** SHA-256 over provider, model, settings and messages (the response-cache key). */
    requestHash: z.string(),
    messages: z.array(chatMessageSchema),
    outputText: z.string(),
    usage: modelUsageSchema,
    /** Cost in USD when the price is known, else null. */
    costUsd: z.number().nonnegative().nullable(),
    /**
     * The price-table row `costUsd` was computed with at record time (lib/llm/pricing.ts:
     * `(input − cached) × in + cached × cachedIn + output × out`); null for the demo model, a cached
     * response (cost 0), an unpriced model, or logs written before the price table.
     */
    price: z.object({ rowId: z.string(), enteredAt: z.string() }).nullable().default(null),
    /** Wall time of the call in ms. */
    latencyMs: z.number().nonnegative(),
    finishReason: z.string(),
    source: z.enum(["live", "cache"]),
    /** What the model port changed so the provider would take the call (e.g. "stop sequences dropped: …"). */
    adjustments: z.array(z.string()).default([]),
    /**
     * The prompt's size against the model's context window, as the engine counted it before the call
     * (lib/domain/tokenizer.ts, lib/domain/model-windows.ts; docs/decisions/0016). Null in logs written before it.
     */
    contextUse: z
      .object({
        /** Tokens of `messages` by `tokenizer`. */
        promptTokens: z.number().int().nonnegative(),
        /** The model's context window in tokens. */
        window: z.number().int().positive(),
        /** The encoding counted with, e.g. `o200k_base`, or the fallback estimate's name. */
        tokenizer: z.string(),
        /** True when `tokenizer` is the model's own encoding; false for an estimate. */
        exact: z.boolean(),
      })
      .nullable()
      .default(null),
  }),
  "model-call-error": z.object({
    callId: callIdSchema,
    role: modelRoleSchema,
    trial,
    step: step.nullable(),
    modelId: z.string(),
    code: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    attempts: z.number().int().positive(),
    /**
     * Code `output-too-large`: the reply's size when the model port stopped reading it (UTF-8 bytes and
     * tokens received) and the limits in force (`REFLEXION_MAX_OUTPUT_BYTES` / `_TOKENS`,
     * lib/llm/output-limit.ts). Null for every other error and in logs written before the limit.
     */
    output: z
      .object({
        bytes: z.number().int().nonnegative(),
        tokens: z.number().int().nonnegative(),
        limitBytes: z.number().int().positive(),
        limitTokens: z.number().int().positive(),
      })
      .nullable()
      .default(null),
  }),
  /** `callId` is null when the step was written by a person (`action-edit`), not the model. */
  "step-thought": z.object({
    trial,
    step,
    text: z.string(),
    callId: callIdSchema.nullable(),
    /** Reasoning blocks (`<think>…</think>`) taken out of the completion: shown collapsed, never in later prompts. */
    reasoning: z.string().nullable().default(null),
  }),
  "step-action": z.object({
    trial,
    step,
    /** The action line as the model wrote it (first line only). */
    text: z.string(),
    action: parsedActionSchema.nullable(),
    /** Why `text` is not a valid action; null when it parsed. */
    parseError: z.string().nullable(),
    /** Null when the action was injected by a person (`action-edit`). */
    callId: callIdSchema.nullable(),
    /** What the reader dropped around the first well-formed action (trailing text, a second action, a made-up observation). */
    ignored: z.string().nullable().default(null),
    /** The completion was cut off by the token limit (finish reason `length`) but still held a usable action. */
    truncated: z.boolean().default(false),
  }),
  "step-observation": z.object({
    trial,
    step,
    text: z.string(),
    /** True when this step ended the episode (e.g. `Finish[...]`). */
    done: z.boolean(),
    /** The submitted answer when `done` came from a final action. */
    answer: z.string().nullable(),
    /** Optional snapshot of the world after the step (e.g. location, inventory) for the UI. */
    state: z.record(z.string(), z.unknown()).nullable().default(null),
  }),
  "evaluation-end": z.object({
    trial,
    verdict: z.enum(["pass", "fail"]),
    /** 1 for pass, 0 for fail for binary evaluators. */
    score: z.number().min(0).max(1),
    feedback: z.string(),
    /** `trace-score`: the verdict an imported trace records (its own score, labelled with its source in `details.source`). */
    evaluatorKind: z.enum(["exact-match", "environment-success", "unit-tests", "llm-judge", "trace-score"]),
    /** True when the evaluator uses the gold answer (an oracle signal, not self-evaluation). */
    oracle: z.boolean(),
    details: z.record(z.string(), z.unknown()),
    /**
     * Code tasks: the dataset's hidden tests, run once per trial for reporting only
     * (never shown to the agent; `verdict` above is the internal tests' verdict,
     * which drives the loop). Null for other families.
     */
    hiddenTests: hiddenTestReportSchema.nullable().default(null),
    /** Code tasks: the internal tests passed but the hidden tests did not (paper §4, Table 2). */
    falsePositive: z.boolean().default(false),
    /**
     * LLM-judge Evaluators (the `open` family): per-criterion scores and
     * justifications, the weighted score, the threshold and the judge's `model-call-end` (its
     * prompt). A model's opinion, never an oracle. Null for other families.
     */
    judge: judgeVerdictSchema.nullable().default(null),
  }),
  "reflection-end": z.object({
    trial,
    text: z.string(),
    callId: callIdSchema,
    /** Set when the reflection failed a check (empty or markup only, a copy of the answer, a duplicate of a reflection in memory, fewer than four words) even after one retry: the sentence saying which; shown in the memory panel. Null for a reflection that passed. */
    warning: z.string().nullable().default(null),
  }),
  /**
   * Self-Refine (lib/domain/self-refine.ts): the Actor's model's feedback on the trial's current
   * answer in round `round` (1-based); `stop` when it contains the stop phrase (nothing left to fix).
   * `callId`: its `model-call-end` (role `actor`, step null), recorded just before it.
   */
  "refine-feedback": z.object({
    trial,
    round: z.number().int().positive(),
    text: z.string(),
    stop: z.boolean(),
    callId: callIdSchema,
  }),
  /** Self-Refine: the answer as rewritten after round `round`'s feedback; the Evaluator judges the last one. */
  "refine-answer": z.object({
    trial,
    round: z.number().int().positive(),
    text: z.string(),
    callId: callIdSchema,
  }),
  "reflection-edit": z.object({
    reflectionEventId: eventIdSchema,
    oldText: z.string(),
    newText: z.string(),
    note: z.string().nullable(),
  }),
  "memory-edit": z.object({
    oldMemory: z.array(memoryItemSchema),
    newMemory: z.array(memoryItemSchema),
    note: z.string().nullable(),
  }),
  /**
   * The episodic memory merged by the Self-Reflection model with the run's summariser template
   * (`RunConfig.memoryManagement.kind = "summarize"`, lib/domain/memory-summary.ts),
   * appended just before trial `trial` starts: `before` is replaced by `after` (one item, the
   * summary, id = this event's id, `trial: null`). `callId`: the `model-call-end` (role `reflector`,
   * step null) that wrote it. Token counts are of the reflection texts, by the reflector model's tokenizer.
   */
  "memory-summary": z.object({
    trial,
    before: z.array(memoryItemSchema),
    after: z.array(memoryItemSchema),
    callId: callIdSchema,
    tokenBudget: z.number().int().positive(),
    beforeTokens: z.number().int().nonnegative(),
    afterTokens: z.number().int().nonnegative(),
  }),
  "settings-edit": z.discriminatedUnion("target", [
    z.object({
      target: z.literal("breakpoints"),
      oldValue: breakpointsSchema,
      newValue: breakpointsSchema,
      note: z.string().nullable(),
    }),
    z.object({
      /** A role's model and sampling settings, from the next call of that role on. */
      target: z.literal("model"),
      role: z.enum(["actor", "reflector"]),
      oldValue: modelSettingsSchema,
      newValue: modelSettingsSchema,
      note: z.string().nullable(),
    }),
  ]),
  /** A role's prompt template replaced, from the next call of that role on. */
  "prompt-edit": z.object({
    role: z.enum(["actor", "reflector"]),
    oldTemplate: promptTemplateSchema,
    newTemplate: promptTemplateSchema,
    note: z.string().nullable(),
  }),
  /** The Actor's next action written by a person: the next step uses it instead of calling the model. */
  "action-edit": z.object({
    trial,
    step,
    text: z.string().min(1),
    note: z.string().nullable(),
  }),
  checkpoint: z.object({
    /** The trial that has just ended (and, when reflected on, its reflection). */
    trial,
    /** Digest of the folded state up to and including this point. */
    digest: z.string(),
  }),
  "trial-end": z.object({
    trial,
    outcome: z.enum(["success", "failure", "halted"]),
    reason: z.string(),
  }),
  "run-pause": z.object({
    /**
     * `budget`: the run's budget is spent (status `budget-exhausted`); resume with a higher one.
     * `spending-limit`: a person's or the lab's budget across runs is spent (lib/domain/spending-limits.ts);
     * resume once an admin raised it.
     */
    reason: z.enum(["user", "breakpoint", "model-error", "step", "budget", "spending-limit"]),
    /** Which breakpoint or error paused the run, for people. */
    detail: z.string(),
    /** For a breakpoint: which point (e.g. `before-call:actor:2:3`), so resuming does not stop there again. */
    at: z.string().nullable().default(null),
  }),
  "run-resume": z.object({
    reason: z.enum(["user", "recovery"]),
    /** Step: run one action, then pause again. */
    step: z.boolean().default(false),
  }),
  "run-cancel": z.object({ reason: z.string() }),
  /**
   * Intent: someone (the web app, the CLI, another process) asks a running
   * branch to pause. The driver acts on it at its next step boundary by
   * appending `run-pause` (reason `user`); the status reads `pausing` until then.
   */
  "pause-request": intentSchema,
  /**
   * Intent: someone asks a branch to cancel. The driver aborts the model call or
   * sandbox job in flight and appends `run-cancel` + `run-end` (cancelled); the
   * status reads `cancelling` until then.
   */
  "cancel-request": intentSchema,
  "run-end": z.object({
    outcome: z.enum(["success", "failure", "cancelled"]),
    trials: z.number().int().nonnegative(),
    /** The run stopped before its trial budget by adaptive trials (lib/domain/adaptive-trials.ts); null otherwise. */
    stopReason: stopReasonSchema.nullable().default(null),
    /** What the adaptive stop saw, for people; null without a stop reason. */
    stopDetail: z.string().nullable().default(null),
  }),
  /** The run's budget changed (resume with a higher budget, lib/domain/budget.ts); null = no budget. */
  "budget-edit": z.object({
    oldValue: budgetSchema.nullable(),
    newValue: budgetSchema.nullable(),
    note: z.string().nullable(),
  }),
  /**
   * A warm start (lib/domain/memory-store.ts) — the task's reflections read from a memory
   * store when the run was created, appended right after `run-start`: they enter the episodic memory
   * (ids `carried:<entry id>`, `trial: null`) ahead of trial 1, with where each came from.
   */
  "memory-carried-in": z.object({
    store: memoryStoreNameSchema,
    entries: z.array(
      z.object({
        itemId: z.string(),
        entryId: z.string(),
        text: z.string(),
        source: memorySourceSchema,
        /** ISO-8601 time the entry was written to the store. */
        createdAt: z.string(),
      }),
    ),
    /** Why nothing was carried in when that is not just an empty task, e.g. "memory store 'x' does not exist (stores: a, b)". */
    note: z.string().optional(),
  }),
  "run-error": z.object({ code: z.string(), message: z.string() }),
  ...treeEventSchemas,
  ...insightEventSchemas,
} as const;

/** Every event type name. */
export type EventType = keyof typeof eventDataSchemas;
export const eventTypes = Object.keys(eventDataSchemas) as EventType[];

/** The `data` payload of a stored event of type `T`. */
export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;
/** The `data` payload as a writer may give it (fields with defaults may be left out). */
export type EventDataInput<T extends EventType> = z.input<(typeof eventDataSchemas)[T]>;

const envelope = {
  id: eventIdSchema,
  runId: runIdSchema,
  branchId: branchIdSchema,
  /** Position on its branch, contiguous from 1 (a fork continues from `forkSeq + 1`). */
  seq: z.number().int().positive(),
  schemaVersion: z.number().int().positive(),
  /** ISO-8601 timestamp. */
  occurredAt: z.string(),
  /** The event that caused this one, when there is one (e.g. a step points at its model call). */
  causedBy: eventIdSchema.nullable(),
  /**
   * Who made the event (lib/domain/actor.ts): the person whose request appended it, the worker driving
   * the run on its owner's behalf, a lesson or an importer; null when none was known. Absent in logs and
   * bundles written before actors were recorded (they still read).
   */
  actor: actorSchema.nullable().optional(),
};

function envelopeOf<T extends EventType>(type: T) {
  return z.object({ ...envelope, type: z.literal(type), data: eventDataSchemas[type] });
}

/** zod schema of a stored event envelope `{ id, runId, branchId, seq, type, schemaVersion, occurredAt, causedBy, actor?, data }`. */
export const runEventSchema = z.discriminatedUnion("type", [
  envelopeOf("run-start"),
  envelopeOf("branch-start"),
  envelopeOf("trial-start"),
  envelopeOf("model-call-end"),
  envelopeOf("model-call-error"),
  envelopeOf("step-thought"),
  envelopeOf("step-action"),
  envelopeOf("step-observation"),
  envelopeOf("evaluation-end"),
  envelopeOf("reflection-end"),
  envelopeOf("reflection-edit"),
  envelopeOf("memory-edit"),
  envelopeOf("memory-summary"),
  envelopeOf("settings-edit"),
  envelopeOf("prompt-edit"),
  envelopeOf("action-edit"),
  envelopeOf("checkpoint"),
  envelopeOf("trial-end"),
  envelopeOf("run-pause"),
  envelopeOf("run-resume"),
  envelopeOf("run-cancel"),
  envelopeOf("pause-request"),
  envelopeOf("cancel-request"),
  envelopeOf("run-end"),
  envelopeOf("run-error"),
  envelopeOf("budget-edit"),
  envelopeOf("memory-carried-in"),
  envelopeOf("insights-carried-in"),
  envelopeOf("tree-select"),
  envelopeOf("tree-node"),
  envelopeOf("tree-value"),
  envelopeOf("tree-follow"),
  envelopeOf("tree-backprop"),
  envelopeOf("tree-focus"),
  envelopeOf("refine-feedback"),
  envelopeOf("refine-answer"),
]);
/** A stored event. */
export type RunEvent = z.infer<typeof runEventSchema>;
/** A stored event of one type. */
export type RunEventOf<T extends EventType> = Extract<RunEvent, { type: T }>;

/**
 * An event before the store gives it a seq and timestamp. `id` may be chosen by
 * the writer (so later drafts in the same batch can point at it with `causedBy`);
 * the store generates one otherwise. `occurredAt` (ISO-8601) is read only by
 * `RunStore.importExperiment`, which keeps an imported record's own times; every other writer
 * stamps the time of writing. `actor`, when given, is recorded as is (a bundle's own events keep
 * theirs); otherwise the store stamps the actor of the work in progress (null when there is none).
 */
export type EventDraft = {
  [T in EventType]: { id?: string; type: T; data: EventDataInput<T>; causedBy?: string | null; occurredAt?: string; actor?: Actor | null };
}[EventType];

/** Builds a typed draft; `data` is checked against the type's schema at append time. */
export function draft<T extends EventType>(
  type: T,
  data: EventDataInput<T>,
  options: { id?: string; causedBy?: string | null } = {},
): EventDraft {
  return { id: options.id, type, data, causedBy: options.causedBy ?? null } as EventDraft;
}
