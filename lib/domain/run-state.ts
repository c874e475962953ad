import type { ChangeAuthor, ChangeView } from "./change-authors";
import type { Breakpoints, RunConfig } from "./config";
import type { EventData, MemoryItem } from "./events";
import type { BudgetSpend } from "./budget";
import type { TreeSearchView } from "./tree-search";

/**
 * The folded state's shapes (lib/domain/fold-run.ts folds a log into a {@link RunState}), kept
 * apart from the reducer so the parts of the fold in other files (the search tree's,
 * lib/domain/fold-tree.ts) can name them without importing the reducer. fold-run.ts re-exports them.
 */

/** One Thought → Action → Observation step of a trial, as far as it has happened. */
export interface StepView {
  step: number;
  thought: (EventData<"step-thought"> & { eventId: string }) | null;
  action: (EventData<"step-action"> & { eventId: string }) | null;
  observation: (EventData<"step-observation"> & { eventId: string }) | null;
  /** The step was recorded elsewhere (the own branch of an imported paper log, `config.provenance.kind === "paper-log"`, or of an imported trace, `"external-trace"`): no person wrote it, and a paper log recorded no model call. A bundle's steps were recorded by this app with their model calls, so they are not marked. */
  recordedByAuthors: boolean;
  /** In a tree-search run (LATS): the search-tree node this step is (lib/domain/tree-search.ts). */
  treeNode?: string;
}

/** A reflection as it stands now: `text` includes edits, `originalText` is what the model wrote. */
export interface ReflectionView {
  eventId: string;
  callId: string;
  text: string;
  originalText: string;
  edits: number;
  /** Why the reflection failed a check before it entered memory (empty, a copy of the answer, a duplicate), even after one retry; null when it passed. */
  warning: string | null;
  /** Who made the last edit, when its event records an actor (lib/domain/change-authors.ts); absent otherwise. */
  editedBy?: ChangeAuthor;
}

/** One Self-Refine round of a trial (lib/domain/self-refine.ts), as folded from the log (`refine-feedback`, then `refine-answer`). */
export interface RefinementView {
  /** 1-based. */
  round: number;
  /** The model's feedback on the answer before this round; `stop` when it contained the stop phrase. */
  feedback: { text: string; stop: boolean; callId: string; eventId: string } | null;
  /** The refined answer this round wrote; null until written (and for ever in a round whose feedback stopped). */
  answer: { text: string; callId: string; eventId: string } | null;
}

/** One trial: the memory it started with, its trajectory, verdict and reflection. */
export interface TrialView {
  trial: number;
  startEventId: string;
  memory: MemoryItem[];
  evicted: MemoryItem[];
  steps: StepView[];
  /** The answer submitted by a final action, if any; under Self-Refine, the last refined answer once one is written (what the Evaluator judges). */
  answer: string | null;
  /** Self-Refine's feedback → refine rounds of this trial, oldest first (lib/domain/self-refine.ts); empty under other methods. */
  refinements: RefinementView[];
  evaluation: (EventData<"evaluation-end"> & { eventId: string }) | null;
  /** How the trial ended (its `trial-end`); null while in progress, or when the run was cancelled during it (see {@link cancelled}). */
  outcome: EventData<"trial-end">["outcome"] | null;
  /** The run was cancelled while this trial was under way: it never gets a `trial-end`, and is not in progress either. */
  cancelled: boolean;
  endReason: string | null;
  reflection: ReflectionView | null;
  /** Ids of the model calls made for this trial (Actor and Self-Reflection), in order. */
  callIds: string[];
}

/** Run status as far as the log alone can tell (the server adds `interrupted`). */
export type LogStatus = "running" | "paused" | "ended" | "error";

/** Token and cost totals over all recorded model calls. Tokens are counts, cost is USD. */
export interface RunTotals {
  modelCalls: number;
  liveCalls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum over the calls whose price is known; see `unpricedCalls`. */
  costUsd: number;
  /** Calls recorded with an unknown price (`costUsd === null`), so `costUsd` is a lower bound when > 0. */
  unpricedCalls: number;
}

/** The folded state of a run's event log (one branch path). */
export interface RunState {
  /**
   * The configuration in force: the `run-start` config with every `prompt-edit`, model and
   * breakpoint `settings-edit` and `budget-edit` applied — the templates, models, breakpoints and
   * budget the next call uses. The one config to read; null before `run-start`.
   */
  config: RunConfig | null;
  /**
   * The config exactly as `run-start` recorded it, before any edit. Only for showing what an
   * edit changed (the Steer tab's diff against the original template); read {@link config}
   * for everything else.
   */
  startConfig: RunConfig | null;
  status: LogStatus;
  pause: EventData<"run-pause"> | null;
  outcome: EventData<"run-end">["outcome"] | null;
  error: EventData<"run-error"> | null;
  trials: TrialView[];
  /** The episodic memory now (all reflections, with edits applied), oldest first. */
  memory: MemoryItem[];
  breakpoints: Breakpoints;
  /** A `pause-request` is waiting for the driver (cleared by `run-pause`, `run-end`, `run-error`). */
  pauseRequested: boolean;
  /** A `cancel-request` is waiting for the driver (cleared by `run-end`, `run-error`). */
  cancelRequested: boolean;
  /** An action a person wrote for the Actor's next step (`action-edit`), not yet used. */
  pendingAction: EventData<"action-edit"> | null;
  /** People's changes on this path whose events record an actor, in log order; absent when there are none (lib/domain/change-authors.ts). */
  changes?: ChangeView[];
  /** Who made the last `memory-edit`, when its event records an actor; absent otherwise. */
  memoryEditedBy?: ChangeAuthor;
  /** Resumed with Step: pause again after one action. */
  stepping: boolean;
  /** The breakpoint (`run-pause.at`) the run was last resumed from, until it makes progress. */
  resumedFrom: string | null;
  /** Progress events (model calls, steps, evaluations, reflections, trial starts/ends) since the last resume. */
  progressSinceResume: number;
  /**
   * Actions done since the last resume, for Step ("one action"): an Actor step
   * (its observation), an evaluation or a reflection. Starting a trial is not one.
   */
  actionsSinceResume: number;
  /**
   * How many calls on this path made each request (by request hash): the next
   * identical request is occurrence n, which a recorded replay serves with the
   * n-th recorded response (lib/llm/caching-model-port.ts).
   */
  requestCounts: Record<string, number>;
  /** Model calls by call id. */
  calls: Record<string, EventData<"model-call-end"> & { eventId: string; seq: number }>;
  callErrors: Array<EventData<"model-call-error"> & { eventId: string }>;
  totals: RunTotals;
  /** What the path's live calls spent, for the budget (lib/domain/budget.ts): USD and tokens. */
  spend: BudgetSpend;
  /** The reflections a warm start carried into trial 1 (`memory-carried-in`), or null. */
  carriedIn: EventData<"memory-carried-in"> | null;
  /** The ExpeL insights carried into trial 1 (`insights-carried-in`, lib/domain/insight-events.ts), or null. */
  insightsCarriedIn: EventData<"insights-carried-in"> | null;
  /** Why adaptive trials ended the run early (`run-end.stopReason`), or null. */
  stop: { reason: NonNullable<EventData<"run-end">["stopReason"]>; detail: string } | null;
  /** How this branch's model calls use the response cache (the config's on the root branch, `live` by default; a fork's own). */
  replayMode: "live" | "recorded";
  /** Set on a forked branch: where it left its parent. */
  fork: EventData<"branch-start"> | null;
  /** The search tree of a tree-search method (LATS; lib/domain/fold-tree.ts); null for every other method. */
  tree: TreeSearchView | null;
  lastSeq: number;
  eventCount: number;
}
