import { MAX_BUDGET_TOKENS } from "@/lib/domain/budget";

/**
 * The optimise form's "Token budget" field (components/experiments/optimise-panel.tsx): empty means
 * no limit; anything else must be a whole number of tokens from 1 to {@link MAX_BUDGET_TOKENS}
 * (the budget's own limit, lib/domain/budget.ts). A malformed entry is an error for the person to
 * fix, never a silent "no limit": with a paid model that would be unbounded spend.
 */
export type TokenBudgetField = { ok: true; tokens: number | null } | { ok: false; error: string };

/** Reads the field's text: `{ ok: true, tokens }` (null = no limit) or `{ ok: false, error }` saying what to type. */
export function parseTokenBudgetField(text: string): TokenBudgetField {
  const trimmed = text.trim().replace(/[_,\s]/g, "");
  if (trimmed === "") return { ok: true, tokens: null };
  const limit = `a whole number of tokens from 1 to ${MAX_BUDGET_TOKENS.toLocaleString("en-US")}, or leave it empty for no limit`;
  if (!/^\d+$/.test(trimmed)) return { ok: false, error: `"${text.trim()}" is not a number: enter ${limit}.` };
  const tokens = Number(trimmed);
  if (tokens < 1 || tokens > MAX_BUDGET_TOKENS) return { ok: false, error: `${text.trim()} is out of range: enter ${limit}.` };
  return { ok: true, tokens };
}
