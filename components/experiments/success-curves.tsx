"use client";

import { Area, CartesianGrid, ComposedChart, Line, ReferenceDot, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { PaperCurveNotes } from "@/lib/domain/paper-curves";
import type { ArmResult } from "@/lib/domain/experiment";
import type { EnvironmentId } from "@/lib/domain/config";
import { armRates, bandKey, coincideText, coincidentArms, curveKey, endLabelRanks, gapKey, successCurveRows, withUnrecordedSpans, type CurveRow } from "@/lib/graph/compare-arms";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { ArmSwatch, armStyle, metricName } from "./labels";

/** A solved count: whole with one repetition, the mean over repetitions (two decimals) with more. */
function solvedCount(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** Tooltip: the trial and, per arm, tasks solved so far as a count and a percentage. */
function CurveTooltip({ active, label, rows, arms }: Pick<TooltipContentProps, "active" | "label"> & { rows: CurveRow[]; arms: readonly ArmResult[] }) {
  if (!active || label === undefined) return null;
  const row = rows.find((candidate) => candidate.trial === Number(label));
  if (!row) return null;
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md" data-testid="curve-tooltip">
      <p className="mb-1 font-semibold text-slate-900">By trial {row.trial}</p>
      <ul className="space-y-0.5">
        {arms.map((arm, index) => {
          const point = row.points[index];
          return (
            <li key={arm.label} className="flex items-center gap-2">
              <ArmSwatch index={index} />
              <span className="font-medium text-slate-800">{arm.label}</span>
              <span className="tabular-nums text-slate-700">
                {point ? `${solvedCount(point.solved)}/${point.tasks} tasks (${point.percent}%${point.ci ? `, 95 % interval ${point.ci[0]}–${point.ci[1]}%` : ""})` : "no such trial"}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The y axis's words: "EM: tasks solved", or "tasks solved (%, cumulative)" when the arms mix task families (no one metric). */
export function yAxisLabel(metric: string | null): string {
  return metric ? `${metric}: tasks solved` : "tasks solved (%, cumulative)";
}

/** Average width (px) of a character of the 12px semibold end label, rounded up. */
const END_LABEL_CHAR_PX = 7.5;

/**
 * Right margin (px) that fits the longest end label ("<label, cut at endLabelMax> 100%", drawn 8px
 * right of the last point), so no label is clipped at the chart's edge.
 */
export function endLabelMargin(arms: ReadonlyArray<Pick<ArmResult, "label">>, endLabelMax: number): number {
  const longest = Math.max(0, ...arms.map((arm) => Math.min(arm.label.length, endLabelMax)));
  return Math.max(64, Math.ceil((longest + " 100%".length) * END_LABEL_CHAR_PX) + 8 + 12);
}

/**
 * The cumulative success-by-trial curves, one line per arm (the Reflexion
 * paper's Fig. 3): x = trial, y = % of the arm's tasks solved at or before that
 * trial. Lines differ in colour, dash and end label; the legend below gives the
 * counts in words. Each line has its 95 % band (`successByTrialCI`: Wilson with one
 * repetition, a bootstrap over tasks and repetitions with more), named under the chart.
 */
export function SuccessCurves({
  arms,
  environment,
  endLabelMax = 14,
  mixedFamilies = false,
  paperNotes = [],
}: {
  arms: readonly ArmResult[];
  /** Per arm (same order): what an imported paper curve does not record and the paper's reported point (lib/domain/paper-curves.ts). */
  paperNotes?: ReadonlyArray<PaperCurveNotes | null>;
  environment: EnvironmentId;
  /** The arms come from different task families (an overlay of QA with ALFWorld): the axis names no family's metric. */
  mixedFamilies?: boolean;
  /** Characters of an arm's label at the end of its line before it is cut with "…" (the legend always has it whole). */
  endLabelMax?: number;
}) {
  const spans = arms.map((_, index) => paperNotes[index]?.unrecorded ?? null);
  const rows = withUnrecordedSpans(successCurveRows(arms), spans);
  const lastTrial = rows.length;
  const ticks = rows.map((row) => row.trial);
  const metric = mixedFamilies ? null : metricName(environment);
  const labelRanks = endLabelRanks(arms);
  const rightMargin = endLabelMargin(arms, endLabelMax);
  const banded = arms.some((arm) => (arm.successByTrialCI ?? []).length > 0);
  const repeats = Math.max(1, ...arms.map((arm) => arm.repeats ?? 1));
  // Coinciding curves would hide all but the last drawn: within a group, earlier arms are drawn wider (a halo around the
  // later line) with larger hollow markers, so every arm stays visible and identifiable.
  const coincident = coincidentArms(arms);
  const underneath = new Map<number, number>();
  for (const group of coincident) group.forEach((index, rank) => underneath.set(index, group.length - 1 - rank));
  return (
    <figure className="space-y-3" data-testid="success-curves" aria-labelledby="success-curves-caption">
      <figcaption id="success-curves-caption" className="text-xs text-slate-600">
        Share of tasks solved at or before each trial ({metric ?? "%"}, cumulative), one line per arm{metric ? "" : " (each of its own task family)"}.
      </figcaption>
      {lastTrial === 0 ? (
        <p className="py-10 text-center text-sm text-slate-500">No trials yet: the curves appear when the first runs end a trial.</p>
      ) : (
        <ComposedChart
          data={rows}
          responsive
          style={{ width: "100%", height: 300 }}
          margin={{ top: 12, right: rightMargin, bottom: 24, left: 8 }}
          title={`${metric ?? "Tasks solved"} by trial, one line per arm`}
        >
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis
            dataKey="trial"
            type="number"
            domain={[1, Math.max(lastTrial, 2)]}
            ticks={ticks}
            allowDecimals={false}
            tick={{ fontSize: 12, fill: "#334155" }}
            label={{ value: "Trial", position: "insideBottom", offset: -14, fontSize: 12, fill: "#334155" }}
          />
          <YAxis
            domain={[0, 100]}
            ticks={[0, 25, 50, 75, 100]}
            unit="%"
            width={56}
            tick={{ fontSize: 12, fill: "#334155" }}
            label={{ value: yAxisLabel(metric), angle: -90, position: "insideLeft", offset: 4, dy: 60, fontSize: 12, fill: "#334155" }}
          />
          <Tooltip content={(props) => <CurveTooltip active={props.active} label={props.label} rows={rows} arms={arms} />} />
          {arms.map((arm, index) =>
            (arm.successByTrialCI ?? []).length > 0 ? (
              <Area
                key={`band-${arm.label}`}
                dataKey={bandKey(index)}
                name={`${arm.label} 95 % band`}
                type="linear"
                className={`curve-band curve-band-${index}`}
                stroke="none"
                fill={armStyle(index).color}
                fillOpacity={0.14}
                isAnimationActive={false}
                activeDot={false}
                tooltipType="none"
                legendType="none"
              />
            ) : null,
          )}
          {arms.map((arm, index) => {
            const style = armStyle(index);
            const armLast = Math.min(arm.successByTrial.length, arm.trialsReached ?? Infinity) - 1;
            return (
              <Line
                key={arm.label}
                dataKey={curveKey(index)}
                name={arm.label}
                type="linear"
                className={`curve-line curve-${index}${underneath.has(index) ? " curve-coincides" : ""}`}
                stroke={style.color}
                strokeWidth={2.5 + 3 * (underneath.get(index) ?? 0)}
                strokeOpacity={(underneath.get(index) ?? 0) > 0 ? 0.55 : 1}
                strokeDasharray={style.dash}
                dot={(underneath.get(index) ?? 0) > 0 ? { r: 3.5 + 3 * (underneath.get(index) ?? 0), fill: "none", stroke: style.color, strokeWidth: 2 } : { r: 3.5, fill: style.color, strokeWidth: 0 }}
                activeDot={{ r: 5 }}
                isAnimationActive={false}
                label={(props) =>
                  props.index === armLast && typeof props.x === "number" && typeof props.y === "number" ? (
                    <text x={props.x + 8} y={Number(props.y) + 4 + (Number(props.value) >= 50 ? 1 : -1) * (labelRanks[index] ?? 0) * 14} fontSize={12} fontWeight={600} fill={style.color} data-testid={`curve-end-label-${index}`}>
                      {arm.label.length > endLabelMax ? `${arm.label.slice(0, endLabelMax - 1)}…` : arm.label} {typeof props.value === "number" ? `${props.value}%` : ""}
                    </text>
                  ) : (
                    <g />
                  )
                }
              />
            );
          })}
          {arms.map((arm, index) =>
            spans[index] ? (
              <Line
                key={`gap-${arm.label}`}
                dataKey={gapKey(index)}
                name={`${arm.label} (not recorded)`}
                type="linear"
                className={`curve-unrecorded curve-unrecorded-${index}`}
                stroke={armStyle(index).color}
                strokeWidth={2}
                strokeDasharray="2 5"
                dot={{ r: 3.5, fill: "#ffffff", stroke: armStyle(index).color, strokeWidth: 1.5 }}
                isAnimationActive={false}
                legendType="none"
                tooltipType="none"
              />
            ) : null,
          )}
          {paperNotes.map((notes, index) =>
            notes?.reported ? (
              <ReferenceDot
                key={`reported-${index}`}
                x={notes.reported.trial}
                y={Math.round((1000 * notes.reported.solved) / notes.reported.tasks) / 10}
                r={6}
                fill="none"
                stroke="#0f172a"
                strokeWidth={1.5}
                className="paper-reported-point"
                label={{ value: notes.reported.label, position: "top", fontSize: 11, fill: "#0f172a" }}
              />
            ) : null,
          )}
        </ComposedChart>
      )}
      {spans.some(Boolean) || paperNotes.some((notes) => notes?.reported) ? (
        <ul className="space-y-0.5 text-[11px] text-slate-600" data-testid="paper-curve-notes">
          {arms.map((arm, index) => {
            const notes = paperNotes[index];
            return (
              <li key={arm.label}>
                {notes?.unrecorded ? (
                  <span data-testid="unrecorded-note">
                    <strong>{arm.label}</strong>, dashed with hollow points at trials {notes.unrecorded.fromTrial}–{notes.unrecorded.toTrial}: {notes.unrecorded.note}
                  </span>
                ) : null}
                {notes?.reported ? (
                  <span data-testid="reported-note">
                    <strong>{arm.label}</strong>: the circled point is the paper&apos;s reported stopping point ({notes.reported.solved}/{notes.reported.tasks} by trial{" "}
                    {notes.reported.trial}); the line is what the logs record.
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {coincident.length > 0 ? (
        <p className="text-[11px] text-slate-700" data-testid="curve-coincide-note">
          {coincident.map((group) => {
            const labels = group.map((index) => arms[index]!.label);
            return (
              <span key={labels.join("|")} className="mr-3" data-arms={labels.join(",")}>
                <strong>{coincideText(labels)}</strong>: their curves are identical, drawn on top of each other ({labels.slice(0, -1).join(", ")} wider with hollow points beneath {labels.at(-1)}).
              </span>
            );
          })}
        </p>
      ) : null}
      {banded ? (
        <p className="text-[11px] text-slate-600" data-testid="curve-band-note" data-method={repeats > 1 ? "bootstrap" : "wilson"}>
          Shaded: 95 % intervals —{" "}
          {repeats > 1
            ? `a bootstrap over tasks and repetitions (${repeats} per task; lines are the mean over repetitions).`
            : "Wilson score intervals (one run per task and arm)."}
        </p>
      ) : null}
      <ul className="flex flex-wrap gap-x-6 gap-y-1.5 text-xs text-slate-700" data-testid="curve-legend" aria-label="Legend">
        {arms.map((arm, index) => {
          const rates = armRates(arm);
          return (
            <li
              key={arm.label}
              className="flex items-center gap-2"
              data-testid="curve-legend-item"
              data-arm={arm.label}
              data-final-percent={rates.last.percent}
              data-first-percent={rates.first.percent}
            >
              <ArmSwatch index={index} />
              <span>
                <strong className="text-slate-900">{arm.label}</strong> ({strategyLabel(arm.strategy, environment)}, {armStyle(index).name} line):{" "}
                <span className="tabular-nums">
                  {solvedCount(rates.first.solved)}/{rates.first.tasks} at trial 1 → {solvedCount(rates.last.solved)}/{rates.last.tasks} ({rates.last.percent}%{rates.last.ci ? ` [${rates.last.ci[0]}, ${rates.last.ci[1]}]` : ""}) by trial {rates.reachedAtTrial}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
