import { z } from "zod";

/**
 * Budgets (docs/decisions/0024-costs-budgets-memory.md): a
 * run may spend at most `usd` dollars and/or `tokens` tokens on model calls.
 * The engine checks before every action (an Actor step, an evaluation, a
 * reflection, a trial start) — a step boundary — and, once a limit is reached,
 * pauses the branch with `run-pause` reason `budget` (status
 * `budget-exhausted`, lib/domain/status.ts). The call that crosses a limit is
 * completed and recorded (nothing is cut half way), so a run may overshoot by
 * at most one call. Resuming with a higher budget appends `budget-edit` and
 * continues.
 *
 * What counts: live calls only (a call served from the response cache costs
 * nothing); tokens = input + output; USD = the recorded `costUsd` of the live
 * calls (unpriced calls count 0 USD, so a USD budget on an unpriced model
 * never stops it — use tokens there). Over the branch's whole path, so a fork
 * inherits what its parent spent before the fork point.
 */
/** The largest USD budget accepted (a guard against a typo, not a spending policy). */
export const MAX_BUDGET_USD = 1_000_000;
/** The largest token budget accepted (input + output). */
export const MAX_BUDGET_TOKENS = 1_000_000_000;

export const budgetSchema = z
  .object({
    /** USD, > 0, at most {@link MAX_BUDGET_USD}. */
    usd: z.number().positive().max(MAX_BUDGET_USD).optional(),
    /** Tokens (input + output), > 0, at most {@link MAX_BUDGET_TOKENS}. */
    tokens: z.number().int().positive().max(MAX_BUDGET_TOKENS).optional(),
  })
  .refine((budget) => budget.usd !== undefined || budget.tokens !== undefined, { message: "a budget needs usd or tokens (or pass null for none)" });
export type Budget = z.infer<typeof budgetSchema>;

/** What a branch has spent so far on live model calls: USD and tokens (input + output). */
export interface BudgetSpend {
  usd: number;
  tokens: number;
}

/** One live or cached model call as the budget sees it. */
export interface SpendingCall {
  source: "live" | "cache";
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number | null;
}

/** Adds one call to a spend, in place (cached calls spend nothing). */
export function addSpend(spend: BudgetSpend, call: SpendingCall): void {
  if (call.source !== "live") return;
  spend.usd += call.costUsd ?? 0;
  spend.tokens += call.usage.inputTokens + call.usage.outputTokens;
}

/**
 * Why the budget stops the run now, for people (`run-pause.detail`), or null
 * while it has room. A limit is reached when the spend is at or over it.
 */
export function budgetExhausted(budget: Budget | null | undefined, spend: BudgetSpend): string | null {
  if (!budget) return null;
  if (budget.usd !== undefined && spend.usd >= budget.usd) {
    return `Budget exhausted: $${formatUsd(spend.usd)} spent of $${formatUsd(budget.usd)}. Resume with a higher budget to continue.`;
  }
  if (budget.tokens !== undefined && spend.tokens >= budget.tokens) {
    return `Budget exhausted: ${spend.tokens.toLocaleString("en-US")} tokens used of ${budget.tokens.toLocaleString("en-US")}. Resume with a higher budget to continue.`;
  }
  return null;
}

/**
 * What a branch has spent, for people: "$0.012, 1,010 tokens". When some live calls were unpriced
 * the USD figure is not the cost: "cost unknown" (none priced) or "at least $0.01" (some priced).
 */
export function spendText(spend: BudgetSpend, unpricedCalls: number): string {
  const tokens = `${spend.tokens.toLocaleString("en-US")} tokens`;
  if (unpricedCalls > 0) return spend.usd === 0 ? `cost unknown, ${tokens}` : `at least $${formatUsd(spend.usd)}, ${tokens}`;
  return `$${formatUsd(spend.usd)}, ${tokens}`;
}

/**
 * A budget that would let a spent branch go on, as the JSON to resume with: twice the spend. A token
 * budget when the budget in force has no USD limit or the model is unpriced (a USD budget cannot stop
 * an unpriced model), else a USD one.
 */
export function suggestedBudget(current: Budget | null | undefined, spend: BudgetSpend, unpricedCalls: number): Budget {
  const tokens = Math.max(1000, Math.ceil((Math.max(spend.tokens, current?.tokens ?? 0) * 2) / 1000) * 1000);
  if (unpricedCalls > 0 || current?.usd === undefined) return { tokens };
  return { usd: Number(formatUsd(Math.max(spend.usd * 2, current.usd * 2, 0.01))) };
}

/**
 * A `run-pause` budget detail without what the banner's headline and form already say: the
 * leading "Budget exhausted:" and the closing "Resume with a higher budget to continue."
 */
export function budgetPauseDetail(detail: string): string {
  const text = detail
    .trim()
    .replace(/^budget exhausted[:.]\s*/i, "")
    .replace(/\s*resume with a higher budget to continue\.?$/i, "")
    .trim();
  if (text === "") return "";
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? "" : "."}`;
}

/** A USD amount with enough digits for sub-cent sums (`0.0012`). */
export function formatUsd(usd: number): string {
  if (usd === 0) return "0";
  if (usd >= 1) return usd.toFixed(2);
  return usd.toPrecision(2).replace(/0+$/, "").replace(/\.$/, "");
}

/**
 * An experiment's budget split evenly over its runs (one per task × arm): each
 * run gets `budget / runs` (tokens rounded down, at least 1). The split keeps
 * every run's stop decision local to its own log (deterministic, resumable on
 * its own); a shared pool would make one run's stop depend on the others' timing.
 */
export function splitBudget(budget: Budget | null | undefined, runs: number): Budget | null {
  if (!budget || runs < 1) return budget ?? null;
  return {
    ...(budget.usd !== undefined ? { usd: budget.usd / runs } : {}),
    ...(budget.tokens !== undefined ? { tokens: Math.max(1, Math.floor(budget.tokens / runs)) } : {}),
  };
}
