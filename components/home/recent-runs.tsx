"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { runListQuery } from "@/lib/query";
import { Badge } from "@/components/ui/badge";
import { formatShortTime } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/notice";
import { HowToLink } from "@/components/help/how-to-link";
import { Spinner } from "@/components/ui/spinner";
import { StatusPill } from "@/components/ui/status-pill";
import { strategyLabel } from "@/components/ui/strategy-labels";
import { isDemoModel } from "@/lib/domain/model-id";
import { ScriptedStandIn } from "@/components/ui/scripted-stand-in";
import { SearchLauncher } from "@/components/search/search-launcher";

const outcomeTone = { success: "green", failure: "red", cancelled: "neutral" } as const;

/** Recent runs with status, strategy, model, trials and outcome; each links to its run page. */
export function RecentRuns() {
  const runs = useQuery(runListQuery());

  return (
    <section aria-labelledby="recent-runs-heading" className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
      <header className="flex items-center justify-between border-b border-slate-200 px-4 py-2.5">
        <h2 id="recent-runs-heading" className="text-sm font-semibold text-slate-900">
          Recent runs
        </h2>
        {runs.isFetching && !runs.isPending ? <Spinner className="size-3" label="Refreshing" /> : null}
      </header>
      <SearchLauncher className="border-b border-slate-200 px-4 py-2" />
      <div data-testid="recent-runs" className="min-h-0 overflow-auto">
        {runs.isPending ? (
          <p className="flex items-center gap-2 px-4 py-6 text-sm text-slate-500">
            <Spinner /> Loading runs…
          </p>
        ) : runs.error ? (
          <p className="px-4 py-6 text-sm text-red-700">Could not load runs: {runs.error.message}</p>
        ) : runs.data.runs.length === 0 ? (
          <EmptyState title="No runs yet" action={<HowToLink list="runs">How to start and replay a run</HowToLink>}>
            Pick a task and press Run: the first trial starts right away.
          </EmptyState>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="sticky top-0 bg-slate-50 text-[11px] uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">Task</th>
                <th scope="col" className="px-2 py-2 font-semibold">Status</th>
                <th scope="col" className="px-2 py-2 font-semibold">Strategy</th>
                <th scope="col" className="px-2 py-2 font-semibold">Model</th>
                <th scope="col" className="px-2 py-2 text-right font-semibold">Trials</th>
                <th scope="col" className="px-2 py-2 font-semibold">Outcome</th>
                <th scope="col" className="px-4 py-2 font-semibold">Started</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {runs.data.runs.map((run) => (
                <tr key={run.id} data-testid="recent-run-row" data-run-id={run.id} data-status={run.status} className="hover:bg-slate-50">
                  <td className="px-4 py-2">
                    <Link href={`/runs/${encodeURIComponent(run.id)}`} prefetch={false} data-testid="run-link" className="line-clamp-2 font-medium text-sky-800 hover:underline" title={run.title}>
                      {run.title}
                    </Link>
                    <span className="font-mono text-[11px] text-slate-500">{run.taskId}</span>
                  </td>
                  <td className="px-2 py-2">
                    <StatusPill status={run.status} />
                  </td>
                  <td className="whitespace-nowrap px-2 py-2 text-xs text-slate-700">{strategyLabel(run.strategy, run.environment)}</td>
                  <td className="px-2 py-2">
                    <code className="font-mono text-xs text-slate-800">{run.modelId}</code>
                    {isDemoModel(run.modelId) ? <ScriptedStandIn className="block whitespace-nowrap text-[11px] text-violet-700" /> : null}
                  </td>
                  <td className="px-2 py-2 text-right tabular-nums text-slate-800">{run.trials}</td>
                  <td className="px-2 py-2">{run.outcome ? <Badge tone={outcomeTone[run.outcome]}>{run.outcome}</Badge> : <span className="text-xs text-slate-500">—</span>}</td>
                  <td className="whitespace-nowrap px-4 py-2 text-xs text-slate-600">{formatShortTime(run.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
