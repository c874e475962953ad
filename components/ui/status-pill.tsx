import { replayingLabel, type ReplayStep, type ShownStatus } from "@/lib/domain/shown-status";
import { cn } from "@/lib/utils/cn";

const styles: Record<ShownStatus, { label: string; className: string; dot: string }> = {
  replaying: { label: "Replaying", className: "bg-violet-50 text-violet-900 ring-violet-300", dot: "bg-violet-500" },
  queued: { label: "Queued", className: "bg-slate-50 text-slate-700 ring-slate-300", dot: "bg-slate-400 animate-pulse" },
  pausing: { label: "Pausing…", className: "bg-amber-50 text-amber-900 ring-amber-200", dot: "bg-amber-400 animate-pulse" },
  cancelling: { label: "Cancelling…", className: "bg-red-50 text-red-800 ring-red-200", dot: "bg-red-400 animate-pulse" },
  running: { label: "Running", className: "bg-sky-50 text-sky-800 ring-sky-200", dot: "bg-sky-500 animate-pulse" },
  paused: { label: "Paused", className: "bg-amber-50 text-amber-900 ring-amber-300", dot: "bg-amber-500" },
  ended: { label: "Ended", className: "bg-slate-100 text-slate-700 ring-slate-300", dot: "bg-slate-500" },
  error: { label: "Error", className: "bg-red-50 text-red-800 ring-red-300", dot: "bg-red-500" },
  interrupted: { label: "Interrupted", className: "bg-orange-50 text-orange-900 ring-orange-300", dot: "bg-orange-500" },
  "budget-exhausted": { label: "Budget exhausted", className: "bg-rose-50 text-rose-900 ring-rose-300", dot: "bg-rose-500" },
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Run status as a pill (lib/domain/status.ts): queued / running / pausing / cancelling / paused / ended / error / interrupted,
 * or — at a replay cursor (lib/domain/shown-status.ts) — "Replaying (step k of n)" given `replay`.
 */
export function StatusPill({ status, replay = null, className }: { status: ShownStatus; replay?: ReplayStep | null; className?: string }) {
  const style = styles[status];
  const label = status === "replaying" && replay ? capitalised(replayingLabel(replay)) : style.label;
  return (
    <span
      data-testid="run-status"
      data-status={status}
      data-replay-step={replay?.step}
      data-replay-of={replay?.of}
      className={cn("inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset", style.className, className)}
    >
      <span aria-hidden className={cn("size-1.5 rounded-full", style.dot)} />
      {label}
    </span>
  );
}
