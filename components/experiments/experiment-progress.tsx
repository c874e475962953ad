import type { ExperimentSummary } from "@/lib/domain/experiment";
import { progressText } from "@/lib/graph/compare-arms";
import { formatElapsed } from "@/components/ui/format";
import { cn } from "@/lib/utils/cn";

/** Milliseconds as a coarse ETA: `< 1 s`, `12 s`, `3 min 05 s`. */
export function formatEta(ms: number): string {
  return ms < 1_000 ? "< 1 s" : formatElapsed(ms);
}

/** The experiment's progress bar with "k/n runs · ETA …" beside it (an ARIA progressbar). */
export function ExperimentProgress({ summary }: { summary: Pick<ExperimentSummary, "progress" | "status"> }) {
  const { done, total } = summary.progress;
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  const text = progressText(summary.progress, summary.status, formatEta);
  return (
    <div className="flex min-w-[20rem] flex-1 flex-wrap items-center gap-3" data-testid="experiment-progress" data-done={done} data-total={total}>
      <div
        role="progressbar"
        aria-label="Runs finished"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={text}
        className="h-2.5 min-w-40 max-w-md flex-1 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn("h-full rounded-full transition-[width] duration-500", summary.status === "cancelled" ? "bg-red-400" : summary.status === "stopped" ? "bg-rose-400" : done >= total && total > 0 ? "bg-green-600" : "bg-sky-600")}
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="text-sm tabular-nums text-slate-800" data-testid="experiment-progress-text">
        {text}
      </span>
    </div>
  );
}
