"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { experimentListQuery } from "@/lib/query/experiment-queries";
import { Badge } from "@/components/ui/badge";
import { formatShortTime } from "@/components/ui/format";
import { EmptyState } from "@/components/ui/notice";
import { HowToLink } from "@/components/help/how-to-link";
import { Spinner } from "@/components/ui/spinner";
import { ExperimentStatusBadge } from "./experiment-status";
import { familyName } from "./labels";
import { RecordedBadge } from "@/components/provenance";

/** The CLI command that fills the database with the paper's comparison on the built-in QA tasks. */
export const CLI_EXAMPLE = "npm run cli -- experiment run --env qa --tasks builtin --arms none,reflexion --model demo --trials 5";

/** `/experiments`: every experiment with its family, arms, progress and status; an empty state says how to start one. */
export function ExperimentList() {
  const [withDerived, setWithDerived] = useState(false);
  const list = useQuery(experimentListQuery(withDerived));
  return (
    <main className="mx-auto w-full max-w-6xl flex-1 space-y-4 px-4 py-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold text-slate-900">Experiments</h1>
          <p className="max-w-3xl text-sm text-slate-600">
            A task set × arms × trials: every (task, arm) pair is one run, and the results page draws the share of tasks solved by each trial, one line per
            arm — the Reflexion paper&apos;s Fig. 3.
          </p>
        </div>
        <span className="flex items-center gap-2">
          <Link
            href="/experiments/overlay"
            data-testid="open-overlay"
            className="inline-flex h-9 items-center rounded-md border border-slate-300 px-3.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
            title="Several experiments' curves on one chart (e.g. the authors' arms and yours)"
          >
            Overlay experiments
          </Link>
          <Link
            href="/experiments/new"
            data-testid="new-experiment"
            className="inline-flex h-9 items-center rounded-md bg-slate-900 px-3.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600"
          >
            New experiment
          </Link>
        </span>
      </header>
      <label className="flex items-center gap-2 text-xs text-slate-700">
        <input
          type="checkbox"
          className="accent-sky-700"
          checked={withDerived}
          onChange={(event) => setWithDerived(event.target.checked)}
          data-testid="experiments-with-derived"
        />
        Also show the experiments optimisations and template checks ran for their evaluations
      </label>
      <section aria-label="Experiments" className="rounded-lg border border-slate-200 bg-white">
        {list.isPending ? (
          <p className="flex items-center gap-2 px-4 py-6 text-sm text-slate-500">
            <Spinner /> Loading experiments…
          </p>
        ) : list.error ? (
          <p role="alert" className="px-4 py-6 text-sm text-red-700">
            Could not load the experiments: {list.error.message} Reload the page; if it persists, check that the server is running.
          </p>
        ) : list.data.experiments.length === 0 ? (
          <EmptyState title="No experiments yet" className="py-10" action={<HowToLink list="experiments">How to run an experiment</HowToLink>}>
            <p data-testid="experiments-empty">
              Press <strong>New experiment</strong>, or run <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800">{CLI_EXAMPLE}</code>{" "}
              in a terminal (same database): it appears here. Or{" "}
              <Link href="/imports" className="font-medium text-sky-800 underline" data-testid="experiments-empty-import">
                import the paper&apos;s runs
              </Link>{" "}
              — the authors&apos; own HotpotQA, ALFWorld and programming logs.
            </p>
          </EmptyState>
        ) : (
          <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="experiment-list">
            <thead className="bg-slate-50 text-[11px] uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">Name</th>
                <th scope="col" className="px-2 py-2 font-semibold">Family</th>
                <th scope="col" className="px-2 py-2 font-semibold">Arms</th>
                <th scope="col" className="px-2 py-2 text-right font-semibold">Tasks</th>
                <th scope="col" className="px-2 py-2 font-semibold">Progress</th>
                <th scope="col" className="px-2 py-2 font-semibold">Status</th>
                <th scope="col" className="px-4 py-2 font-semibold">Created</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.data.experiments.map((item) => (
                <tr key={item.id} data-testid="experiment-row" data-experiment-id={item.id} className="hover:bg-slate-50">
                  <td className="px-4 py-2">
                    <Link href={`/experiments/${encodeURIComponent(item.id)}`} className="font-medium text-sky-800 hover:underline" data-testid="experiment-link">
                      {item.name}
                    </Link>{" "}
                    <RecordedBadge provenance={item.provenance} />
                    {item.origin ? (
                      <Badge tone="outline" data-testid="experiment-origin">
                        {item.origin.kind === "optimisation" ? `optimisation ${item.origin.id}` : `check “${item.origin.id}”`}
                      </Badge>
                    ) : null}
                  </td>
                  <td className="px-2 py-2 text-xs text-slate-700">{familyName(item.environment)}</td>
                  <td className="px-2 py-2">
                    <span className="flex flex-wrap gap-1">
                      {item.arms.map((arm) => (
                        <Badge key={arm} tone="outline">
                          {arm}
                        </Badge>
                      ))}
                    </span>
                  </td>
                  <td className="px-2 py-2 text-right tabular-nums">{item.tasks}</td>
                  <td className="px-2 py-2">
                    <span className="flex items-center gap-2">
                        <span className="h-1.5 w-20 overflow-hidden rounded-full bg-slate-200" aria-hidden>
                          <span className="block h-full bg-sky-600" style={{ width: `${item.total === 0 ? 0 : (item.done / item.total) * 100}%` }} />
                        </span>
                        <span className="tabular-nums text-xs text-slate-700">
                          {item.done}/{item.total} runs
                        </span>
                      </span>
                    </td>
                    <td className="px-2 py-2">
                      <ExperimentStatusBadge status={item.status} />
                    </td>
                    <td className="whitespace-nowrap px-4 py-2 text-xs text-slate-600">{formatShortTime(item.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          )}
        </section>
      </main>
    );
  }
  