import { budgetExhausted, spendText, suggestedBudget, type Budget } from "@/lib/domain/budget";
import { AppError } from "@/lib/domain/errors";
import { draft, type EventDraft } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";

/**
 * What resuming a branch appends before its `run-resume` when a budget is given
 * (lib/domain/budget.ts): a `budget-edit` from the budget in
 * force to `requested` (`undefined` = keep it; `null` = remove it). A branch
 * stopped by its budget (`budget-exhausted`) resumes only when the budget then in
 * force has room left; otherwise nothing is appended and the caller is told what to give.
 * @throws AppError("conflict") naming what has been spent.
 */
export function budgetResumeDrafts(state: RunState, exhausted: boolean, requested: Budget | null | undefined): EventDraft[] {
  const current = state.config?.budget ?? null;
  const next = requested === undefined ? current : requested;
  if (exhausted && budgetExhausted(next, state.spend) !== null) {
    throw new AppError(
      "conflict",
      `The run's budget is spent (${spendText(state.spend, state.totals.unpricedCalls)} so far): resume with a higher budget (e.g. ${JSON.stringify({ budget: suggestedBudget(next, state.spend, state.totals.unpricedCalls) })}), or none.`,
    );
  }
  if (requested === undefined || JSON.stringify(requested) === JSON.stringify(current)) return [];
  return [draft("budget-edit", { oldValue: current, newValue: requested, note: null })];
}
