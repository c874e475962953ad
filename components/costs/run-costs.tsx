"use client";

import { useMemo, useState } from "react";
import type { RunStatus } from "@/lib/domain/api";
import { summarizeCosts } from "@/lib/domain/cost-summary";
import type { RunState } from "@/lib/domain/fold-run";
import { useResumeRun } from "@/lib/query/mutations";
import { RoleReadOnlyNote } from "@/components/auth/role-read-only-note";
import { Button } from "@/components/ui/button";
import { budgetPauseDetail, spendText } from "@/lib/domain/budget";
import { Notice } from "@/components/ui/notice";
import { CostTable, costText, KIND_LABELS } from "./cost-table";

/** A suggested next budget: twice what was spent (at least the old limit × 2), rounded up to two significant digits. */
function suggest(spent: number, limit: number | undefined, integer: boolean): string {
  const target = Math.max(spent * 2, (limit ?? 0) * 2);
  if (target <= 0) return "";
  if (integer) return String(Math.ceil(target / 1000) * 1000);
  const magnitude = 10 ** (Math.floor(Math.log10(target)) - 1);
  return String(Number((Math.ceil(target / magnitude) * magnitude).toPrecision(2)));
}

/** The budget-exhausted banner: what was spent, and a new budget to resume with. */
function BudgetBanner({ runId, branch, state, readOnly }: { runId: string; branch: string | null; state: RunState; readOnly: string | null }) {
  const budget = state.config?.budget ?? null;
  // Unpriced calls count $0: a USD budget cannot stop such a model, so the banner offers a token budget.
  const unpriced = state.totals.unpricedCalls > 0;
  const [usd, setUsd] = useState(() => (budget?.usd !== undefined && !unpriced ? suggest(state.spend.usd, budget.usd, false) : ""));
  const [tokens, setTokens] = useState(() => (budget?.tokens !== undefined || unpriced ? suggest(state.spend.tokens, budget?.tokens, true) : ""));
  const resume = useResumeRun(runId, branch);
  const usdValue = usd.trim() === "" ? undefined : Number(usd);
  const tokenValue = tokens.trim() === "" ? undefined : Number(tokens);
  const invalid =
    (usdValue !== undefined && !(Number.isFinite(usdValue) && usdValue > state.spend.usd)) ||
    (tokenValue !== undefined && !(Number.isInteger(tokenValue) && tokenValue > state.spend.tokens));
  const next = usdValue === undefined && tokenValue === undefined ? null : { ...(usdValue !== undefined ? { usd: usdValue } : {}), ...(tokenValue !== undefined ? { tokens: tokenValue } : {}) };
  return (
    <Notice tone="warning" data-testid="budget-banner" className="mx-4 mt-2">
      <p>
        <strong className="font-semibold">Budget exhausted.</strong>{" "}
        <span data-testid="budget-detail">{budgetPauseDetail(state.pause?.detail ?? "")}</span> The run stopped between two steps; everything recorded is kept.
      </p>
      {unpriced ? (
        <p className="mt-1 text-xs" data-testid="budget-unpriced">
          The model has no price (cost unknown): a USD budget cannot stop it — give a token budget.
        </p>
      ) : null}
      {readOnly !== null ? (
        <RoleReadOnlyNote reason={readOnly} className="mt-2" />
      ) : (
        <form
          className="mt-2 flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (!invalid) resume.mutate({ budget: next });
          }}
        >
          <label className="flex flex-col text-xs">
            New budget, USD
            <input
              data-testid="budget-usd-input"
              inputMode="decimal"
              className="mt-0.5 h-8 w-28 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
              value={usd}
              onChange={(event) => setUsd(event.target.value)}
              placeholder="none"
            />
          </label>
          <label className="flex flex-col text-xs">
            New budget, tokens
            <input
              data-testid="budget-tokens-input"
              inputMode="numeric"
              className="mt-0.5 h-8 w-32 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
              value={tokens}
              onChange={(event) => setTokens(event.target.value)}
              placeholder="none"
            />
          </label>
          <Button type="submit" variant="primary" size="sm" disabled={invalid || resume.isPending} data-testid="budget-resume">
            {next === null ? "Resume without a budget" : "Resume with this budget"}
          </Button>
          {invalid ? <span className="text-xs text-red-800">Give more than has been spent ({spendText(state.spend, state.totals.unpricedCalls)}), or leave a field empty for no limit.</span> : null}
          {resume.error ? (
            <span className="text-xs text-red-800" role="alert">
              {resume.error.message}
            </span>
          ) : null}
        </form>
      )}
    </Notice>
  );
}

/**
 * Costs and budgets on the run page: the budget-exhausted
 * banner with a resume control, the adaptive stop's reason, and a "Costs" disclosure
 * with the cost table per trial and role (acting / evaluating / reflecting).
 */
export function RunCosts({ runId, branch, state, status, readOnly = null }: { runId: string; branch: string | null; state: RunState; status: RunStatus | null; /** Why the signed-in person may not resume this run with a new budget (lib/domain/run-permissions.ts); null when they may. */ readOnly?: string | null }) {
  const summary = useMemo(() => summarizeCosts(Object.values(state.calls)), [state.calls]);
  return (
    <>
      {status === "budget-exhausted" ? <BudgetBanner key={state.lastSeq} runId={runId} branch={branch} state={state} readOnly={readOnly} /> : null}
      {state.stop ? (
        <Notice tone="info" data-testid="adaptive-stop" className="mx-4 mt-2">
          <strong className="font-semibold">{state.stop.reason === "reflections-repeat" ? "Stopped early: the reflections repeat." : "Stopped early: the task's cost ceiling is reached."}</strong>{" "}
          <span data-testid="adaptive-stop-reason" data-reason={state.stop.reason}>
            {state.stop.detail}
          </span>
        </Notice>
      ) : null}
      {summary.total.calls > 0 ? (
        <details className="mx-4 mt-2 rounded-md border border-slate-200 bg-white text-xs" data-testid="run-costs">
          <summary className="cursor-pointer select-none px-3 py-1.5 text-slate-700">
            <span className="font-medium">Costs</span>{" "}
            {(["acting", "evaluating", "reflecting"] as const)
              .filter((kind) => kind !== "evaluating" || summary.byKind.evaluating.calls > 0)
              .map((kind) => `${KIND_LABELS[kind].split(" ")[0]} ${costText(summary.byKind[kind])}`)
              .join(" · ")}
          </summary>
          <div className="overflow-x-auto px-3 pb-2">
            <CostTable summary={summary} />
            <p className="mt-1 text-[11px] text-slate-500">
              Each call is priced when it is recorded, with the price table in force then (Settings → Prices); cached input tokens at the cached rate. Calls served from the response cache cost $0.
            </p>
          </div>
        </details>
      ) : null}
    </>
  );
}
