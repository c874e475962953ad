import Link from "next/link";
import type { RunState } from "@/lib/domain/fold-run";
import { formatShortTime } from "@/components/ui/format";

/**
 * A warm start's reflections in the memory panel: what trial 1
 * was given from which memory store, and where each came from (its run, trial
 * and when it was stored) — as recorded in the run's `memory-carried-in` event.
 */
export function CarriedIn({ state }: { state: RunState }) {
  const carried = state.carriedIn;
  if (!carried) return null;
  return (
    <div className="space-y-1.5 rounded-md border border-violet-200 bg-violet-50 px-2.5 py-2" data-testid="carried-in" data-store={carried.store} data-count={carried.entries.length}>
      <h3 className="text-[11px] font-semibold uppercase tracking-wide text-violet-900">
        Warm start · carried into trial 1 from store <code className="font-mono normal-case">{carried.store}</code> · {carried.entries.length}
      </h3>
      {carried.entries.length === 0 ? (
        <p className="text-xs text-violet-900">The store had no unexpired reflection for this task: trial 1 started cold.</p>
      ) : (
        <ol className="space-y-1.5">
          {carried.entries.map((entry) => (
            <li key={entry.itemId} className="text-xs leading-snug text-slate-800" data-testid="carried-entry" data-source-run={entry.source.runId}>
              <p className="whitespace-pre-wrap break-words">{entry.text}</p>
              <p className="mt-0.5 text-[11px] text-violet-800">
                from{" "}
                <Link className="underline" href={`/runs/${encodeURIComponent(entry.source.runId)}`}>
                  run {entry.source.runId.slice(0, 8)}
                </Link>
                , trial {entry.source.trial} · stored {formatShortTime(entry.createdAt)}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
