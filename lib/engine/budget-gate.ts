import { adaptiveStop } from "@/lib/domain/adaptive-trials";
import { budgetExhausted } from "@/lib/domain/budget";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import { draft, type EventDraft } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import type { NextAction } from "./decide";
import type { RunId } from "@/lib/domain/ids";
import type { SpendingGate } from "./spending-gate";

/**
 * Budgets and adaptive trials at the engine's step boundaries
 * (docs/decisions/0024-costs-budgets-memory.md). Both read only the folded
 * log, so a run stops at the same place however often it is replayed or resumed.
 */

/**
 * The `run-pause` (reason `budget`) to append before `next` when the run's budget
 * (`config.budget`, raised by `budget-edit`) is spent, or null. Only
 * actions that may call a model are held: an Actor step (unless a person wrote
 * its action), a reflection, a trial start (the memory summariser may call the
 * Self-Reflection model, and the trial's first step would), and an evaluation
 * whose Evaluator is a model. Ending the run is never held.
 */
export function budgetPause(state: RunState, next: Exclude<NextAction, { kind: "idle" }>, family: EnvironmentFamily<unknown> | null): EventDraft | null {
  const budget = state.config?.budget;
  if (!budget) return null;
  if (!mayCallModel(state, next, family)) return null;
  const detail = budgetExhausted(budget, state.spend);
  return detail === null ? null : draft("run-pause", { reason: "budget", detail, at: null });
}

/**
 * True when `next` may call a model, so a budget may hold it: an Actor step (unless a person wrote
 * its action), a reflection, a trial start, and an evaluation whose Evaluator is a model. Ending the run never.
 */
export function mayCallModel(state: RunState, next: Exclude<NextAction, { kind: "idle" }>, family: EnvironmentFamily<unknown> | null): boolean {
  if (next.kind === "end-run") return false;
  if (next.kind === "evaluate" && family?.evaluatorUsesModel !== true) return false;
  if (next.kind === "actor-step" && state.pendingAction?.trial === next.trial && state.pendingAction.step === next.step) return false;
  return true;
}

/**
 * The `run-pause` (reason `spending-limit`) to append before `next` when a person's or the lab's
 * budget across runs is spent (`deps.spending`, lib/engine/spending-gate.ts), or null. Asked only
 * where {@link mayCallModel} holds, after the run's own budget.
 */
export async function spendingLimitPause(
  gate: SpendingGate | undefined,
  runId: RunId,
  state: RunState,
  next: Exclude<NextAction, { kind: "idle" }>,
  family: EnvironmentFamily<unknown> | null,
): Promise<EventDraft | null> {
  if (!gate || !mayCallModel(state, next, family)) return null;
  const detail = await gate.exhausted(runId);
  return detail === null ? null : draft("run-pause", { reason: "spending-limit", detail, at: null });
}

/**
 * `next` unless adaptive trials stop the run before the next trial
 * (`config.adaptiveTrials`): then an `end-run` (failure) carrying the
 * stop reason and what was seen. Checked only where another trial would start
 * after a failed one (trial ≥ 2), over the reflections written so far (edits
 * applied) and the USD the run's live calls spent.
 */
export function adaptiveNext(state: RunState, next: NextAction): NextAction {
  if (next.kind !== "start-trial" || next.trial < 2) return next;
  const settings = state.config?.adaptiveTrials;
  if (!settings) return next;
  // Only the newest k reflections are compared: walk back from the last trial, not over the whole run.
  const reflections: string[] = [];
  const wanted = settings.repeatWindow ?? 0;
  for (let i = state.trials.length - 1; i >= 0 && reflections.length < wanted; i -= 1) {
    const reflection = state.trials[i]?.reflection;
    if (reflection) reflections.unshift(reflection.text);
  }
  const stop = adaptiveStop(settings, { reflections, spentUsd: state.spend.usd });
  if (!stop) return next;
  return { kind: "end-run", outcome: "failure", stopReason: stop.reason, stopDetail: stop.detail };
}
