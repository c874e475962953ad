"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { budgetsQuery, useRemoveBudget, useSetBudget } from "@/lib/query/budget-queries";
import { scopeKey, type SpendingLimitView, type SpendingPeriod, type SpendingScope } from "@/lib/domain/spending-limits";
import { Button } from "@/components/ui/button";
import { formatInteger, formatUsd } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";

const input = "mt-0.5 h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

type ScopeChoice = "lab" | "each-person" | "person";

/**
 * The settings page's "Budgets" section (admins): budgets per person and per lab across runs, in USD
 * and/or tokens per UTC day or month, each with this period's spend and a bar; a form to set one and a
 * Remove button per row. A spent budget pauses the runs it binds before their next model call.
 */
export function BudgetsSection() {
  const budgets = useQuery(budgetsQuery());
  const set = useSetBudget();
  const remove = useRemoveBudget();
  const [scope, setScope] = useState<ScopeChoice>("lab");
  const [userId, setUserId] = useState("");
  const [period, setPeriod] = useState<SpendingPeriod>("month");
  const [usd, setUsd] = useState("");
  const [tokens, setTokens] = useState("");
  if (budgets.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Reading the budgets…
      </p>
    );
  }
  if (budgets.isError) {
    return (
      <Notice tone="error" title="The budgets could not be read">
        {budgets.error.message} Only admins see budgets; reload the page, and if it persists check the server&apos;s log.
      </Notice>
    );
  }
  const usdValue = usd.trim() === "" ? null : Number(usd);
  const tokensValue = tokens.trim() === "" ? null : Number(tokens);
  const numbersOk = (usdValue === null || (Number.isFinite(usdValue) && usdValue > 0)) && (tokensValue === null || (Number.isInteger(tokensValue) && tokensValue > 0));
  const valid = numbersOk && (usdValue !== null || tokensValue !== null) && (scope !== "person" || userId.trim() !== "");
  const chosenScope = (): SpendingScope => (scope === "person" ? { kind: "person", userId: userId.trim() } : { kind: scope });
  const error = set.error ?? remove.error;
  return (
    <div className="space-y-3" data-testid="budgets-section">
      <p className="text-xs text-slate-600">
        Budgets across runs: the lab&apos;s (every run), each person&apos;s default, or one account&apos;s. Live model calls count (cached ones are free; unpriced models count only tokens). When a budget is spent, the runs it binds pause before their next model call and say whose budget it is; raise it here, then resume them.
      </p>
      {budgets.data.limits.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="budgets-empty">
          No budgets yet: runs are limited only by their own budgets.
        </p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="budgets-table">
          <thead className="text-xs text-slate-600">
            <tr>
              <th className="py-1 pr-3 font-medium">Who</th>
              <th className="py-1 pr-3 font-medium">Per</th>
              <th className="py-1 pr-3 font-medium">Budget</th>
              <th className="py-1 pr-3 font-medium">Spent this period</th>
              <th className="py-1 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {budgets.data.limits.map((view) => (
              <BudgetRow key={`${scopeKey(view.limit.scope)}-${view.limit.period}`} view={view} onRemove={() => remove.mutate(view.limit)} removing={remove.isPending} />
            ))}
          </tbody>
        </table>
      )}
      <form
        className="flex flex-wrap items-end gap-3"
        aria-label="Set a budget"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) set.mutate({ scope: chosenScope(), period, usd: usdValue, tokens: tokensValue });
        }}
      >
        <label className="flex flex-col text-xs text-slate-700">
          Who
          <select className={input} value={scope} onChange={(e) => setScope(e.target.value as ScopeChoice)} data-testid="budget-scope">
            <option value="lab">The lab (every run)</option>
            <option value="each-person">Each person (default)</option>
            <option value="person">One account…</option>
          </select>
        </label>
        {scope === "person" ? (
          <label className="flex flex-col text-xs text-slate-700">
            Account id
            <input className={`${input} w-56 font-mono`} value={userId} onChange={(e) => setUserId(e.target.value)} placeholder="see Users, or cli users list" data-testid="budget-user" />
          </label>
        ) : null}
        <label className="flex flex-col text-xs text-slate-700">
          Per
          <select className={input} value={period} onChange={(e) => setPeriod(e.target.value as SpendingPeriod)} data-testid="budget-period">
            <option value="day">UTC day</option>
            <option value="month">Month (UTC)</option>
          </select>
        </label>
        <label className="flex flex-col text-xs text-slate-700">
          USD
          <input className={`${input} w-24`} inputMode="decimal" value={usd} onChange={(e) => setUsd(e.target.value)} placeholder="e.g. 20" data-testid="budget-usd" />
        </label>
        <label className="flex flex-col text-xs text-slate-700">
          Tokens
          <input className={`${input} w-32`} inputMode="numeric" value={tokens} onChange={(e) => setTokens(e.target.value)} placeholder="e.g. 2000000" data-testid="budget-tokens" />
        </label>
        <Button type="submit" size="sm" variant="primary" disabled={!valid || set.isPending} data-testid="budget-save">
          Set budget
        </Button>
      </form>
      {!numbersOk ? <p className="text-xs text-red-700">USD must be a number above 0 and tokens a whole number above 0.</p> : null}
      {error ? (
        <Notice tone="error" title="The budget was not changed">
          {error.message}
        </Notice>
      ) : null}
    </div>
  );
}

function BudgetRow({ view, onRemove, removing }: { view: SpendingLimitView; onRemove: () => void; removing: boolean }) {
  const { limit, spent } = view;
  const parts = [limit.usd !== null ? formatUsd(limit.usd) : null, limit.tokens !== null ? `${formatInteger(limit.tokens)} tokens` : null].filter(Boolean).join(" and ");
  // The share of the tighter limit, for the bar.
  const share = Math.min(1, Math.max(limit.usd !== null ? spent.usd / limit.usd : 0, limit.tokens !== null ? spent.tokens / limit.tokens : 0));
  return (
    <tr className="border-t border-slate-200" data-testid="budget-row">
      <td className="py-1.5 pr-3">{view.label}</td>
      <td className="py-1.5 pr-3">{limit.period === "day" ? "day" : "month"}</td>
      <td className="py-1.5 pr-3">{parts}</td>
      <td className="py-1.5 pr-3">
        {limit.scope.kind === "each-person" ? (
          <span className="text-xs text-slate-600">counted per account</span>
        ) : (
          <div className="flex items-center gap-2">
            <div className="h-2 w-24 overflow-hidden rounded bg-slate-200" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share * 100)} aria-label={`${Math.round(share * 100)}% of the budget spent`}>
              <div className={`h-full ${view.exhausted ? "bg-red-600" : "bg-sky-600"}`} style={{ width: `${share * 100}%` }} />
            </div>
            <span className="text-xs">
              {formatUsd(spent.usd)}, {formatInteger(spent.tokens)} tokens{view.exhausted ? <strong className="ml-1 text-red-700">spent</strong> : null}
            </span>
          </div>
        )}
      </td>
      <td className="py-1.5 text-right">
        <Button size="sm" variant="secondary" onClick={onRemove} disabled={removing} aria-label={`Remove the ${limit.period} budget of ${view.label}`}>
          Remove
        </Button>
      </td>
    </tr>
  );
}
