import { z } from "zod";
import { eventDataSchemas, type RunEvent } from "./events";
import type { RunState } from "./fold-run";
import type { LogStatusFacts } from "./status";

const count = z.number().int().nonnegative();

/** Bumped when the summary's shape or rules change; stores recompute older rows from the log. */
export const BRANCH_SUMMARY_VERSION = 4;

/** Calls, tokens and cost of one role's calls. `costUsd` sums the priced calls; `unpricedCalls` counts the others. */
const roleTotalsSchema = z.object({
  calls: count,
  inputTokens: count,
  outputTokens: count,
  costUsd: z.number().nonnegative(),
  unpricedCalls: count,
});
export type RoleTotals = z.infer<typeof roleTotalsSchema>;

/** zod schema of {@link BranchSummaryState} (stores parse what they read back). */
export const branchSummaryStateSchema = z.object({
  version: z.literal(BRANCH_SUMMARY_VERSION),
  branchId: z.string(),
  status: z.enum(["running", "paused", "ended", "error"]),
  pauseRequested: z.boolean(),
  cancelRequested: z.boolean(),
  /** Seq of the newest event on the branch's path (0 before any). */
  lastSeq: count,
  /** Events on the branch's path. */
  eventCount: count,
  pause: z.object({ reason: eventDataSchemas["run-pause"].shape.reason, detail: z.string() }).nullable(),
  outcome: eventDataSchemas["run-end"].shape.outcome.nullable(),
  error: eventDataSchemas["run-error"].nullable(),
  /** Trials started and trials ended on the path. */
  trialsStarted: count,
  trialsEnded: count,
  /** The Actor's model in force (after model edits); null before `run-start`. */
  actorModelId: z.string().nullable(),
  replayMode: z.enum(["live", "recorded"]),
  /** Why the branch exists: `root`, or its fork's reason. */
  reason: z.enum(["root", "edit", "replay"]),
  /** Over the whole path (inherited calls included). Tokens are counts, cost USD. */
  totals: z.object({ modelCalls: count, inputTokens: count, outputTokens: count, costUsd: z.number().nonnegative() }),
  /** Model calls appended on this branch itself (not inherited from its parent). */
  own: z.object({ liveCalls: count, cachedCalls: count }),
  /** Over the whole path, by role: acting (Actor), evaluating (an LLM judge) and reflecting (Self-Reflection). */
  byRole: z.object({ actor: roleTotalsSchema, reflector: roleTotalsSchema, evaluator: roleTotalsSchema }),
  /** Trials that ended `halted` (step limit or a loop; household). */
  halts: count,
  /** Code: the newest evaluation passed the internal tests but not the hidden ones. */
  lastFalsePositive: z.boolean(),
  /** ISO-8601 time of `run-end`, or null while it has not ended. */
  endedAt: z.string().nullable(),
  /**
   * QA: the F1 of each evaluation on the path, in order (`evaluation-end.details.f1`,
   * hotpot_evaluate_v1); null once an evaluation has none (other families, logs before F1).
   */
  f1ByTrial: z.array(z.number().min(0).max(1)).nullable(),
});

/**
 * The per-branch read model that lists, branch trees, status reads, SSE and the
 * scheduler use instead of refolding whole logs (DESIGN.md §8). Stores keep it
 * next to the log and update it in the same transaction as every append
 * ({@link applyToBranchSummary}); a property test keeps it equal to a projection
 * of the full fold ({@link branchSummaryOfState}).
 */
export type BranchSummaryState = z.infer<typeof branchSummaryStateSchema> & LogStatusFacts;

/** The summary of a branch with no events yet. */
export function emptyBranchSummary(branchId: string): BranchSummaryState {
  return {
    branchId,
    status: "running",
    pauseRequested: false,
    cancelRequested: false,
    lastSeq: 0,
    eventCount: 0,
    pause: null,
    outcome: null,
    error: null,
    trialsStarted: 0,
    trialsEnded: 0,
    actorModelId: null,
    replayMode: "live",
    reason: "root",
    totals: { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
    own: { liveCalls: 0, cachedCalls: 0 },
    byRole: { actor: emptyRoleTotals(), reflector: emptyRoleTotals(), evaluator: emptyRoleTotals() },
    halts: 0,
    lastFalsePositive: false,
    endedAt: null,
    f1ByTrial: [],
    version: BRANCH_SUMMARY_VERSION,
  };
}

function emptyRoleTotals(): RoleTotals {
  return { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 };
}

/** The role a call's totals count under: `reflector` and `evaluator` (an LLM judge) their own, anything else acting. */
function roleKey(role: string): "actor" | "reflector" | "evaluator" {
  return role === "reflector" ? "reflector" : role === "evaluator" ? "evaluator" : "actor";
}

/**
 * Applies one event of the branch's path to its summary, in place; O(1). The
 * status rules mirror `applyEvent` in fold-run.ts (the property test in
 * tests/domain/branch-summary.test.ts holds them together).
 */
export function applyToBranchSummary(summary: BranchSummaryState, event: RunEvent): void {
  summary.lastSeq = event.seq;
  summary.eventCount += 1;
  switch (event.type) {
    case "run-start":
      summary.status = "running";
      summary.actorModelId = event.data.config.models.actor.modelId;
      summary.replayMode = event.data.config.replayMode;
      return;
    case "branch-start":
      summary.status = "running";
      summary.pause = null;
      summary.pauseRequested = false;
      summary.cancelRequested = false;
      summary.replayMode = event.data.replayMode;
      summary.reason = event.data.reason;
      return;
    case "trial-start":
      summary.trialsStarted += 1;
      return;
    case "trial-end":
      summary.trialsEnded += 1;
      if (event.data.outcome === "halted") summary.halts += 1;
      return;
    case "evaluation-end": {
      summary.lastFalsePositive = event.data.falsePositive;
      const f1 = recordedF1(event.data.details);
      if (summary.f1ByTrial !== null) summary.f1ByTrial = f1 === null ? null : [...summary.f1ByTrial, f1];
      return;
    }
    case "model-call-end": {
      const role = summary.byRole[roleKey(event.data.role)];
      role.calls += 1;
      role.inputTokens += event.data.usage.inputTokens;
      role.outputTokens += event.data.usage.outputTokens;
      if (event.data.costUsd === null) role.unpricedCalls += 1;
      else role.costUsd += event.data.costUsd;
      summary.totals.modelCalls += 1;
      summary.totals.inputTokens += event.data.usage.inputTokens;
      summary.totals.outputTokens += event.data.usage.outputTokens;
      summary.totals.costUsd += event.data.costUsd ?? 0;
      if (event.branchId === summary.branchId) {
        if (event.data.source === "live") summary.own.liveCalls += 1;
        else summary.own.cachedCalls += 1;
      }
      return;
    }
    case "settings-edit":
      if (event.data.target === "model" && event.data.role === "actor" && summary.actorModelId !== null) {
        summary.actorModelId = event.data.newValue.modelId;
      }
      return;
    case "pause-request":
      if (summary.status === "running") summary.pauseRequested = true;
      return;
    case "cancel-request":
      if (summary.status === "running" || summary.status === "paused") summary.cancelRequested = true;
      return;
    case "run-pause":
      summary.status = "paused";
      summary.pauseRequested = false;
      summary.pause = { reason: event.data.reason, detail: event.data.detail };
      return;
    case "run-resume":
      summary.status = "running";
      summary.pause = null;
      summary.pauseRequested = false;
      return;
    case "run-end":
      summary.status = "ended";
      summary.endedAt = event.occurredAt;
      summary.outcome = event.data.outcome;
      summary.pause = null;
      summary.pauseRequested = false;
      summary.cancelRequested = false;
      return;
    case "run-error":
      summary.status = "error";
      summary.error = event.data;
      summary.pauseRequested = false;
      summary.cancelRequested = false;
      return;
    default:
      return;
  }
}

/** `details.f1` of an evaluation (QA, lib/environments/qa/f1.ts), or null when it has none. */
function recordedF1(details: Record<string, unknown>): number | null {
  return typeof details.f1 === "number" ? details.f1 : null;
}

/** The summary of a branch path's events, folded from scratch (stores use it to backfill). */
export function summarizeBranch(branchId: string, events: readonly RunEvent[]): BranchSummaryState {
  const summary = emptyBranchSummary(branchId);
  for (const event of events) applyToBranchSummary(summary, event);
  return summary;
}

/**
 * The same summary projected from a full fold of the path (the reference the
 * incremental read model must always equal). `ownCalls` are the calls whose
 * events are on the branch itself.
 */
export function branchSummaryOfState(
  branchId: string,
  state: RunState,
  ownCalls: BranchSummaryState["own"],
  endedAt: string | null,
): BranchSummaryState {
  const byRole = { actor: emptyRoleTotals(), reflector: emptyRoleTotals(), evaluator: emptyRoleTotals() };
  for (const call of Object.values(state.calls).sort((a, b) => a.seq - b.seq)) {
    const role = byRole[roleKey(call.role)];
    role.calls += 1;
    role.inputTokens += call.usage.inputTokens;
    role.outputTokens += call.usage.outputTokens;
    if (call.costUsd === null) role.unpricedCalls += 1;
    else role.costUsd += call.costUsd;
  }
  const evaluated = state.trials.filter((trial) => trial.evaluation !== null);
  return {
    version: BRANCH_SUMMARY_VERSION,
    byRole,
    halts: state.trials.filter((trial) => trial.outcome === "halted").length,
    lastFalsePositive: evaluated.at(-1)?.evaluation?.falsePositive ?? false,
    endedAt,
    f1ByTrial: evaluated.reduce<number[] | null>((acc, trial) => {
      const f1 = recordedF1(trial.evaluation?.details ?? {});
      return acc === null || f1 === null ? null : [...acc, f1];
    }, []),
    branchId,
    status: state.status,
    pauseRequested: state.pauseRequested,
    cancelRequested: state.cancelRequested,
    lastSeq: state.lastSeq,
    eventCount: state.eventCount,
    pause: state.pause ? { reason: state.pause.reason, detail: state.pause.detail } : null,
    outcome: state.outcome,
    error: state.error,
    trialsStarted: state.trials.length,
    trialsEnded: state.trials.filter((trial) => trial.outcome !== null).length,
    actorModelId: state.config?.models.actor.modelId ?? null,
    replayMode: state.replayMode,
    reason: state.fork?.reason ?? "root",
    totals: {
      modelCalls: state.totals.modelCalls,
      inputTokens: state.totals.inputTokens,
      outputTokens: state.totals.outputTokens,
      costUsd: state.totals.costUsd,
    },
    own: ownCalls,
  };
}
