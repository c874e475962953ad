"use client";

import { useQuery } from "@tanstack/react-query";
import { memorySummaries, memorySummaryLine } from "@/lib/graph/memory-summaries";
import { runEventsQuery } from "@/lib/query";

/**
 * The memory panel's record of summarisations (memory management
 * `summarize`): for each, before which trial, the counts and tokens, and the
 * reflections before beside the summary after. Renders nothing when the run
 * never summarised. Reads the branch path's events from the query cache.
 */
export function MemorySummaryList({ runId, branch }: { runId: string; branch: string | null }) {
  const events = useQuery(runEventsQuery(runId, branch));
  const summaries = events.data ? memorySummaries(events.data.events) : [];
  if (summaries.length === 0) return null;
  return (
    <div className="space-y-1.5" data-testid="memory-summaries">
      <h3 className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">Summarised · {summaries.length}</h3>
      <ol className="space-y-2">
        {summaries.map((summary) => (
          <li key={summary.eventId} className="space-y-1 rounded-md border border-violet-200 bg-violet-50 px-2.5 py-1.5 text-xs" data-testid="memory-summary" data-trial={summary.trial}>
            <p className="text-[11px] font-medium text-violet-900">
              Before trial {summary.trial}: {memorySummaryLine(summary)}
            </p>
            <div className="grid gap-2 sm:grid-cols-2">
              <div>
                <p className="text-[11px] text-slate-500">Before</p>
                <ol className="space-y-0.5" data-testid="memory-summary-before">
                  {summary.before.map((item) => (
                    <li key={item.id} className="whitespace-pre-wrap break-words text-slate-500 line-through decoration-slate-300">
                      {item.trial === null ? "Hand-written / summary" : `Trial ${item.trial}`}: {item.text}
                    </li>
                  ))}
                </ol>
              </div>
              <div>
                <p className="text-[11px] text-slate-500">After</p>
                <ol className="space-y-0.5" data-testid="memory-summary-after">
                  {summary.after.map((item) => (
                    <li key={item.id} className="whitespace-pre-wrap break-words text-slate-800">
                      {item.text}
                    </li>
                  ))}
                </ol>
              </div>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
