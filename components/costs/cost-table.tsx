import { COST_KINDS, type CostKind, type CostLine, type RunCostSummary } from "@/lib/domain/cost-summary";
import { formatInteger, formatUsd } from "@/components/ui/format";

/** Column headings of the three cost kinds (the split acting / evaluating / reflecting). */
export const KIND_LABELS: Record<CostKind, string> = { acting: "Acting (Actor)", evaluating: "Evaluating (judge)", reflecting: "Reflecting (Self-Reflection)" };

/** A line's cost, with a note when some calls have no known price (then the sum is a lower bound). */
export function costText(line: CostLine): string {
  if (line.calls === 0) return "—";
  const cost = formatUsd(line.costUsd);
  return line.unpricedCalls > 0 ? `${cost} + ${line.unpricedCalls} unpriced` : cost;
}

function Cell({ line, testId }: { line: CostLine; testId?: string }) {
  return (
    <td className="px-2 py-1 text-right tabular-nums" data-testid={testId} data-cost-usd={line.costUsd} data-calls={line.calls}>
      <span className="font-medium text-slate-900">{costText(line)}</span>
      {line.calls > 0 ? (
        <span className="block text-[11px] text-slate-500">
          {line.calls} {line.calls === 1 ? "call" : "calls"} · {formatInteger(line.inputTokens)} in
          {line.cachedInputTokens > 0 ? ` (${formatInteger(line.cachedInputTokens)} cached)` : ""} · {formatInteger(line.outputTokens)} out
        </span>
      ) : null}
    </td>
  );
}

/**
 * A run's costs as a table: one row per trial and a total row, one column per
 * kind (acting / evaluating / reflecting) and the trial's total, each with its
 * calls and tokens; the models used per kind under the headings.
 */
export function CostTable({ summary }: { summary: RunCostSummary }) {
  const kinds = COST_KINDS.filter((kind) => kind !== "evaluating" || summary.byKind.evaluating.calls > 0);
  return (
    <table className="w-full border-collapse text-xs" data-testid="cost-table">
      <thead>
        <tr className="border-b border-slate-200 text-left text-slate-600">
          <th className="px-2 py-1 font-medium">Trial</th>
          {kinds.map((kind) => (
            <th key={kind} className="px-2 py-1 text-right font-medium" data-testid={`cost-kind-${kind}`}>
              {KIND_LABELS[kind]}
              {summary.models[kind].length > 0 ? <span className="block font-mono text-[11px] font-normal text-slate-500">{summary.models[kind].join(", ")}</span> : null}
            </th>
          ))}
          <th className="px-2 py-1 text-right font-medium">Total</th>
        </tr>
      </thead>
      <tbody>
        {summary.byTrial.map((row) => (
          <tr key={row.trial} className="border-b border-slate-100" data-testid="cost-trial-row" data-trial={row.trial}>
            <th scope="row" className="px-2 py-1 text-left font-medium text-slate-700">
              {row.trial}
            </th>
            {kinds.map((kind) => (
              <Cell key={kind} line={row.byKind[kind]} />
            ))}
            <Cell line={row.total} />
          </tr>
        ))}
        <tr className="bg-slate-50" data-testid="cost-total-row">
          <th scope="row" className="px-2 py-1 text-left font-semibold text-slate-800">
            Run
          </th>
          {kinds.map((kind) => (
            <Cell key={kind} line={summary.byKind[kind]} testId={`cost-total-${kind}`} />
          ))}
          <Cell line={summary.total} testId="cost-total-all" />
        </tr>
      </tbody>
    </table>
  );
}
