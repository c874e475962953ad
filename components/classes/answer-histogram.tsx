"use client";

import { Bar, BarChart, Cell, LabelList, XAxis, YAxis } from "recharts";
import { cn } from "@/lib/utils/cn";
import { histogramRows } from "./histogram-rows";

/** Bar colours readable on both themes' surfaces: the right answer green, the others slate. */
const RIGHT = "#16a34a";
const OTHER = "#64748b";

/**
 * The class's answers to one question after the reveal: a horizontal bar per choice (recharts),
 * numbered as on the phones, the right one green and marked "right answer" in words beside it
 * (never by colour alone), and the student's own choice marked when `mine` is given. `large` is
 * the projector's type (≥ 16 px everywhere).
 */
export function AnswerHistogram({
  choices,
  counts,
  answerId,
  mine = null,
  large = false,
}: {
  choices: ReadonlyArray<{ id: string; label: string }>;
  counts: Readonly<Record<string, number>>;
  answerId: string | null;
  mine?: string | null;
  large?: boolean;
}) {
  const rows = histogramRows(choices, counts, answerId);
  const font = large ? 20 : 16;
  const height = 24 + rows.length * (large ? 52 : 40);
  const max = Math.max(1, ...rows.map((row) => row.count));
  return (
    <figure className="w-full min-w-0 text-slate-800" data-testid="class-histogram" aria-label="How the class answered">
      <BarChart data={rows} layout="vertical" responsive style={{ width: "100%", height }} margin={{ top: 4, right: 48, bottom: 4, left: 4 }}>
        <XAxis type="number" hide domain={[0, max]} allowDecimals={false} />
        <YAxis type="category" dataKey="number" width={32} tick={{ fontSize: font, fill: "currentColor" }} tickLine={false} axisLine={false} interval={0} />
        <Bar dataKey="count" isAnimationActive={false} barSize={large ? 32 : 24} minPointSize={2}>
          {rows.map((row) => (
            <Cell key={row.id} fill={row.right ? RIGHT : OTHER} />
          ))}
          <LabelList dataKey="count" position="right" style={{ fontSize: font, fill: "currentColor", fontWeight: 600 }} />
        </Bar>
      </BarChart>
      <ol className={cn("mt-2 flex flex-col gap-1", large ? "text-xl" : "text-base")}>
        {rows.map((row) => (
          <li
            key={row.id}
            data-testid="class-histogram-row"
            data-choice-id={row.id}
            data-count={row.count}
            data-right={row.right || undefined}
            className={cn("flex flex-wrap items-baseline gap-x-2 rounded px-2 py-0.5", row.right && "bg-green-50 text-green-900")}
          >
            <span className="flex-none font-mono font-semibold">{row.number}.</span>
            <span className="min-w-[10rem] flex-1 break-words font-mono">{row.label}</span>
            <span className="flex-none font-semibold tabular-nums">
              {row.count} ({row.percent} %)
            </span>
            {row.right ? <span className="flex-none font-semibold">✓ right answer</span> : null}
            {mine === row.id ? <span className="flex-none text-slate-600">(yours)</span> : null}
          </li>
        ))}
      </ol>
    </figure>
  );
}
