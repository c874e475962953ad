import type { ExperimentSummary } from "@/lib/domain/experiment";
import { cn } from "@/lib/utils/cn";

const styles: Record<ExperimentSummary["status"], { label: string; className: string; dot: string }> = {
  running: { label: "Running", className: "bg-sky-50 text-sky-800 ring-sky-200", dot: "bg-sky-500 animate-pulse" },
  ended: { label: "Finished", className: "bg-slate-100 text-slate-700 ring-slate-300", dot: "bg-slate-500" },
  cancelled: { label: "Cancelled", className: "bg-red-50 text-red-800 ring-red-200", dot: "bg-red-500" },
  stopped: { label: "Stopped: out of budget", className: "bg-rose-50 text-rose-900 ring-rose-300", dot: "bg-rose-500" },
};

/** An experiment's status as a pill with its word: running, finished, cancelled, stopped (out of budget). */
export function ExperimentStatusBadge({ status, className }: { status: ExperimentSummary["status"]; className?: string }) {
  const style = styles[status];
  return (
    <span
      data-testid="experiment-status"
      data-status={status}
      className={cn("inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset", style.className, className)}
    >
      <span aria-hidden className={cn("size-1.5 rounded-full", style.dot)} />
      {style.label}
    </span>
  );
}
