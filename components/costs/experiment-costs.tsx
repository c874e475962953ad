"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { experimentSummarySchema, type ArmResult, type ExperimentSummary } from "@/lib/domain/experiment";
import { fetchJson } from "@/lib/query/fetch-json";
import { Button } from "@/components/ui/button";
import { formatUsd } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";

function sum(values: ReadonlyArray<number | null>): number | null {
  return values.some((value) => value === null) ? null : values.reduce<number>((n, value) => n + (value ?? 0), 0);
}

/**
 * The experiment's costs per arm and role: acting (Actor),
 * evaluating (an LLM judge) and reflecting (Self-Reflection), each arm's total
 * and the experiment's. A null (—) means some call had no known price.
 */
export function ExperimentCostTable({ arms }: { arms: readonly ArmResult[] }) {
  const total = {
    acting: sum(arms.map((arm) => arm.costByRole.acting)),
    evaluating: sum(arms.map((arm) => arm.costByRole.evaluating)),
    reflecting: sum(arms.map((arm) => arm.costByRole.reflecting)),
    all: sum(arms.map((arm) => arm.costUsd)),
  };
  const cell = "px-2 py-1 text-right tabular-nums";
  return (
    <table className="mt-3 w-full border-collapse text-xs" data-testid="experiment-cost-table">
      <caption className="mb-1 text-left text-[11px] font-semibold uppercase tracking-wide text-slate-500">Cost by role (USD)</caption>
      <thead>
        <tr className="border-b border-slate-200 text-left text-slate-600">
          <th className="px-2 py-1 font-medium">Arm</th>
          <th className="px-2 py-1 text-right font-medium">Acting</th>
          <th className="px-2 py-1 text-right font-medium">Evaluating</th>
          <th className="px-2 py-1 text-right font-medium">Reflecting</th>
          <th className="px-2 py-1 text-right font-medium">Total</th>
        </tr>
      </thead>
      <tbody>
        {arms.map((arm) => (
          <tr key={arm.label} className="border-b border-slate-100" data-testid="experiment-cost-row" data-arm={arm.label}>
            <th scope="row" className="px-2 py-1 text-left font-medium text-slate-800">
              {arm.label}
            </th>
            <td className={cell} data-testid="cost-acting" data-usd={arm.costByRole.acting ?? undefined}>
              {formatUsd(arm.costByRole.acting)}
            </td>
            <td className={cell} data-testid="cost-evaluating" data-usd={arm.costByRole.evaluating ?? undefined}>
              {formatUsd(arm.costByRole.evaluating)}
            </td>
            <td className={cell} data-testid="cost-reflecting" data-usd={arm.costByRole.reflecting ?? undefined}>
              {formatUsd(arm.costByRole.reflecting)}
            </td>
            <td className={`${cell} font-medium`}>{formatUsd(arm.costUsd)}</td>
          </tr>
        ))}
        <tr className="bg-slate-50 font-semibold" data-testid="experiment-cost-total">
          <th scope="row" className="px-2 py-1 text-left">
            Experiment
          </th>
          <td className={cell}>{formatUsd(total.acting)}</td>
          <td className={cell}>{formatUsd(total.evaluating)}</td>
          <td className={cell}>{formatUsd(total.reflecting)}</td>
          <td className={cell}>{formatUsd(total.all)}</td>
        </tr>
      </tbody>
    </table>
  );
}

/**
 * When runs of the experiment stopped on their budget: how many, and a new
 * experiment budget (split evenly over its runs) to continue them with
 * (`POST /api/experiments/:id/resume { budget }`).
 */
export function ExperimentBudget({ summary }: { summary: ExperimentSummary }) {
  const exhausted = summary.cells.filter((cell) => cell.status === "budget-exhausted").length;
  const old = summary.experiment.definition.budget ?? null;
  const [usd, setUsd] = useState(old?.usd !== undefined ? String(old.usd * 2) : "");
  const [tokens, setTokens] = useState(old?.tokens !== undefined ? String(old.tokens * 2) : "");
  const client = useQueryClient();
  const resume = useMutation({
    mutationFn: (budget: { usd?: number; tokens?: number } | null) =>
      fetchJson(`/api/experiments/${encodeURIComponent(summary.experiment.id)}/resume`, experimentSummarySchema, { method: "POST", body: { budget } }),
    onSuccess: () => client.invalidateQueries(),
  });
  if (exhausted === 0) return null;
  const u = usd.trim() === "" ? undefined : Number(usd);
  const t = tokens.trim() === "" ? undefined : Number(tokens);
  const invalid = (u !== undefined && !(u > 0)) || (t !== undefined && !(Number.isInteger(t) && t > 0));
  const budget = u === undefined && t === undefined ? null : { ...(u !== undefined ? { usd: u } : {}), ...(t !== undefined ? { tokens: t } : {}) };
  return (
    <Notice tone="warning" data-testid="experiment-budget">
      <p>
        <strong className="font-semibold">
          {exhausted} {exhausted === 1 ? "run" : "runs"} stopped on their budget.
        </strong>{" "}
        Continue them with a larger experiment budget (split evenly over its {summary.progress.total} runs) or none.
      </p>
      <form
        className="mt-2 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!invalid) resume.mutate(budget);
        }}
      >
        <label className="flex flex-col text-xs">
          Experiment budget, USD
          <input className="mt-0.5 h-8 w-28 rounded-md border border-slate-300 bg-white px-2 text-sm" value={usd} onChange={(e) => setUsd(e.target.value)} placeholder="none" data-testid="experiment-budget-usd" />
        </label>
        <label className="flex flex-col text-xs">
          Experiment budget, tokens
          <input className="mt-0.5 h-8 w-32 rounded-md border border-slate-300 bg-white px-2 text-sm" value={tokens} onChange={(e) => setTokens(e.target.value)} placeholder="none" data-testid="experiment-budget-tokens" />
        </label>
        <Button type="submit" size="sm" variant="primary" disabled={invalid || resume.isPending} data-testid="experiment-budget-resume">
          Continue with this budget
        </Button>
        {resume.error ? (
          <span className="text-xs text-red-800" role="alert">
            {resume.error.message}
          </span>
        ) : null}
      </form>
    </Notice>
  );
}
