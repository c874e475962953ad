"use client";

import { CartesianGrid, ErrorBar, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { ExperimentSummary } from "@/lib/domain/experiment";
import { costEffectivenessPoints } from "@/lib/graph/experiment-figures";
import { armStyle } from "./labels";

/**
 * "Is Reflexion worth its extra calls": each arm a point at its mean cost per run (USD, or tokens per
 * run when no arm has a known price, e.g. the demo model) and its final success rate, with the 95 %
 * interval of that rate as a vertical whisker; beside it, each arm's cost per solved run.
 */
export function CostEffectiveness({ summary }: { summary: Pick<ExperimentSummary, "experiment" | "arms"> }) {
  const { unit, points } = costEffectivenessPoints(summary);
  const xLabel = unit === "USD" ? "Cost per run (USD)" : "Tokens per run (in + out; no price known)";
  return (
    <figure className="space-y-2" data-testid="cost-effectiveness" data-unit={unit}>
      <ScatterChart responsive style={{ width: "100%", height: 260 }} margin={{ top: 12, right: 24, bottom: 24, left: 8 }} title="Final success against cost per run, one point per arm">
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
        <XAxis
          type="number"
          dataKey="cost"
          name={xLabel}
          domain={[0, "auto"]}
          tick={{ fontSize: 12, fill: "#334155" }}
          label={{ value: xLabel, position: "insideBottom", offset: -14, fontSize: 12, fill: "#334155" }}
        />
        <YAxis type="number" dataKey="percent" name="Solved (%)" domain={[0, 100]} unit="%" width={56} tick={{ fontSize: 12, fill: "#334155" }} />
        <Tooltip cursor={{ strokeDasharray: "3 3" }} />
        {points.map((point, index) => (
          <Scatter
            key={point.label}
            name={point.label}
            data={[{ ...point, whisker: [point.percent - point.ci[0], point.ci[1] - point.percent] }]}
            fill={armStyle(index).color}
            isAnimationActive={false}
            className="cost-point"
          >
            <ErrorBar dataKey="whisker" direction="y" width={6} stroke={armStyle(index).color} strokeWidth={2} />
          </Scatter>
        ))}
      </ScatterChart>
      <ul className="flex flex-wrap gap-x-6 gap-y-1 text-xs text-slate-700">
        {summary.arms.map((arm, index) => {
          const point = points[index];
          return (
            <li key={arm.label} data-testid="cost-point" data-arm={arm.label}>
              <strong style={{ color: armStyle(index).color }}>{arm.label}</strong>: {point ? `${point.percent.toFixed(1)}% [${point.ci[0].toFixed(1)}, ${point.ci[1].toFixed(1)}]` : "—"} solved,{" "}
              {unit === "USD" ? `$${(point?.cost ?? 0).toFixed(4)} per run` : `${Math.round(point?.cost ?? 0)} tokens per run`}
              {arm.costPerSolvedUsd === null || arm.costPerSolvedUsd === undefined ? "" : `, $${arm.costPerSolvedUsd.toFixed(4)} per solved run`}
            </li>
          );
        })}
      </ul>
      <figcaption className="text-[11px] text-slate-600">Whiskers: 95 % interval of the final success rate. Up and to the left is better.</figcaption>
    </figure>
  );
}
