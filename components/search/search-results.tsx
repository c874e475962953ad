"use client";

import Link from "next/link";
import type { TrialSearchResult } from "@/lib/domain/search-query";
import { runMomentHref } from "@/lib/query/url-state";
import { formatUsd } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/notice";

/**
 * The trials a search found: one row each — run and task, trial, outcome, repeat (with the
 * repeated action as a tooltip), cost, the first match's snippet — linking to the node on the run
 * page (`/runs/<id>?branch=…&node=<eventId>`); "Showing N of M trials"; an empty state.
 */
export function SearchResults({ result }: { result: TrialSearchResult }) {
  if (result.total === 0) {
    return (
      <EmptyState title="No trial matches">
        Nothing matched <code className="font-mono">{result.normalized || "(every trial)"}</code>. Drop a term, or use <code>*</code> in a value (e.g. <code>action:Search[*]</code>).
      </EmptyState>
    );
  }
  return (
    <div className="space-y-2" data-testid="search-results">
      <p className="text-xs text-slate-600 [overflow-wrap:anywhere]" aria-live="polite">
        Showing {result.hits.length} of {result.total} trial{result.total === 1 ? "" : "s"} · <code className="font-mono">{result.normalized || "every trial"}</code> · {result.tookMs} ms
      </p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[20rem] table-fixed border-collapse text-xs">
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th className="w-1/4 py-1 pr-2 font-medium">Run · task</th>
              <th className="w-12 py-1 pr-2 font-medium">Trial</th>
              <th className="w-16 py-1 pr-2 font-medium">Outcome</th>
              <th className="w-14 py-1 pr-2 font-medium">Repeat</th>
              <th className="w-16 py-1 pr-2 font-medium">Cost</th>
              <th className="py-1 font-medium">First match</th>
            </tr>
          </thead>
          <tbody>
            {result.hits.map((hit) => {
              const href = runMomentHref(hit.runId, { branch: hit.branchId, node: hit.eventId });
              const match = hit.matches[0];
              return (
                <tr key={`${hit.branchId}:${hit.trial}`} className="border-b border-slate-100 align-top" data-testid="search-result-row">
                  <td className="truncate py-1 pr-2">
                    <Link href={href} className="text-sky-700 underline-offset-2 hover:underline" title={hit.runTitle}>
                      {hit.runTitle || hit.runId.slice(0, 8)}
                    </Link>
                    <span className="block truncate text-slate-500">{hit.taskId}</span>
                  </td>
                  <td className="py-1 pr-2">{hit.trial}</td>
                  <td className="py-1 pr-2">{hit.outcome ?? "—"}</td>
                  <td className="py-1 pr-2" title={hit.repeatedAction ?? undefined}>
                    {hit.repeat}
                  </td>
                  <td className="py-1 pr-2">{formatUsd(hit.costUsd)}</td>
                  <td className="py-1 text-slate-700 [overflow-wrap:anywhere]">
                    {match ? (
                      <Link href={runMomentHref(hit.runId, { branch: hit.branchId, node: match.eventId })} className="hover:underline">
                        <span className="mr-1 text-slate-500">{match.field}{match.step !== null ? ` ${match.step}` : ""}:</span>
                        {match.snippet}
                      </Link>
                    ) : (
                      <span className="text-slate-500">{hit.repeatedAction ?? ""}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
