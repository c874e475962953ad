"use client";

import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, LabelList, XAxis, YAxis } from "recharts";
import type { FinalBar } from "@/lib/query/overlay-series";
import { armStyle } from "./labels";

/**
 * Final success per arm as horizontal bars: tasks solved by the arm's last
 * trial as a % of its tasks, with the count in words ("34/50 · 68%") — the
 * one-trial logs (pass@1) and the paper's Rust ablation bars. Colours follow
 * the curves' arm styles; the label carries the value, never the colour alone.
 */
export function FinalBars({ bars, metric }: { bars: readonly FinalBar[]; metric: string }) {
  const count = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  const rows = bars.map((bar, index) => ({
    ...bar,
    index,
    whisker: bar.ci ? [bar.percent - bar.ci[0], bar.ci[1] - bar.percent] : [0, 0],
    text: `${count(bar.solved)}/${bar.tasks} · ${bar.percent}%${bar.ci ? ` [${bar.ci[0]}, ${bar.ci[1]}]` : ""}${bar.trials > 1 ? ` by trial ${bar.reachedAtTrial}` : ""}`,
  }));
  const height = 48 + rows.length * 40;
  return (
    <figure className="space-y-2" data-testid="final-bars" aria-labelledby="final-bars-caption">
      <figcaption id="final-bars-caption" className="text-xs text-slate-600">
        {metric} by each arm&apos;s last trial, as a share of its tasks (a one-trial log: pass@1 as logged); whiskers and brackets: 95 % intervals.
      </figcaption>
      <BarChart data={rows} layout="vertical" responsive style={{ width: "100%", height }} margin={{ top: 4, right: 230, bottom: 4, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
        <XAxis type="number" domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} unit="%" tick={{ fontSize: 12, fill: "#334155" }} />
        <YAxis type="category" dataKey="label" width={200} tick={{ fontSize: 12, fill: "#0f172a" }} interval={0} />
        <Bar dataKey="percent" isAnimationActive={false} barSize={22} minPointSize={3}>
          {rows.map((row) => (
            <Cell key={row.label} fill={armStyle(row.index).color} data-testid="final-bar" />
          ))}
          <ErrorBar dataKey="whisker" direction="x" width={6} stroke="#0f172a" strokeWidth={1.5} />
          <LabelList dataKey="text" position="right" style={{ fontSize: 12, fill: "#0f172a", fontWeight: 600 }} />
        </Bar>
      </BarChart>
      <ul className="sr-only" data-testid="final-bars-list">
        {rows.map((row) => (
          <li key={row.label} data-testid="final-bar-item" data-label={row.label} data-solved={row.solved} data-tasks={row.tasks}>
            {row.label}: {row.text}
          </li>
        ))}
      </ul>
    </figure>
  );
}
