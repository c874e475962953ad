import type { RunState } from "@/lib/domain/fold-run";
import { formatInteger, formatUsd } from "@/components/ui/format";
import { cn } from "@/lib/utils/cn";

/**
 * The live cost meter of the run header: what the branch's live
 * calls spent against its budget — USD and/or tokens, a bar per limit — updated
 * with every recorded call while the run runs. Nothing when the run has no budget
 * (the header's totals show the cost).
 */
export function BudgetMeter({ state, live }: { state: RunState; live: boolean }) {
  const budget = state.config?.budget;
  if (!budget) return null;
  const limits: Array<{ key: "usd" | "tokens"; spent: number; limit: number; text: string }> = [];
  if (budget.usd !== undefined) limits.push({ key: "usd", spent: state.spend.usd, limit: budget.usd, text: `${formatUsd(state.spend.usd)} of ${formatUsd(budget.usd)}` });
  if (budget.tokens !== undefined) limits.push({ key: "tokens", spent: state.spend.tokens, limit: budget.tokens, text: `${formatInteger(state.spend.tokens)} of ${formatInteger(budget.tokens)} tokens` });
  return (
    <div className="flex items-center gap-3 text-xs text-slate-600" data-testid="budget-meter" data-live={live}>
      <span className="font-medium">budget</span>
      {limits.map((limit) => {
        const share = Math.min(1, limit.spent / limit.limit);
        return (
          <span key={limit.key} className="inline-flex items-center gap-1.5" data-testid={`budget-meter-${limit.key}`} data-spent={limit.spent} data-limit={limit.limit}>
            <span
              className="relative inline-block h-1.5 w-20 overflow-hidden rounded-full bg-slate-200"
              role="meter"
              aria-label={`Budget used (${limit.key === "usd" ? "USD" : "tokens"})`}
              aria-valuemin={0}
              aria-valuemax={limit.limit}
              aria-valuenow={Math.min(limit.spent, limit.limit)}
            >
              <span className={cn("absolute inset-y-0 left-0 rounded-full", share >= 1 ? "bg-rose-500" : share >= 0.8 ? "bg-amber-500" : "bg-sky-500", live && "animate-pulse")} style={{ width: `${share * 100}%` }} />
            </span>
            <span className="tabular-nums text-slate-800">{limit.text}</span>
          </span>
        );
      })}
    </div>
  );
}
