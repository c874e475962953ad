"use client";

import { useQueries } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ExperimentSummary } from "@/lib/domain/experiment";
import { experimentQuery } from "@/lib/query/experiment-queries";
import { finalBars, hasCurves, overlayEnvironment, overlayHref, overlaySeries } from "@/lib/query/overlay-series";
import { RecordedBadge } from "@/components/provenance";
import { EmptyState, Notice } from "@/components/ui/notice";
import { PageSection } from "@/components/ui/page-section";
import { Spinner } from "@/components/ui/spinner";
import { FinalBars } from "./final-bars";
import { metricExplanation, metricName, OracleLabel } from "./labels";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { OverlayPicker } from "./overlay-picker";
import { SuccessCurves } from "./success-curves";

/** The experiments on the chart, each with its badge, progress and link. */
function OverlayMembers({ summaries }: { summaries: readonly ExperimentSummary[] }) {
  return (
    <ul className="flex flex-wrap gap-x-5 gap-y-1 text-xs text-slate-700" data-testid="overlay-members">
      {summaries.map((summary) => (
        <li key={summary.experiment.id} className="flex min-w-0 flex-wrap items-center gap-1.5 [overflow-wrap:anywhere]" data-testid="overlay-member" data-experiment-id={summary.experiment.id} data-status={summary.status}>
          <Link href={`/experiments/${encodeURIComponent(summary.experiment.id)}`} className="font-medium text-sky-800 hover:underline">
            {summary.experiment.definition.name}
          </Link>
          <RecordedBadge provenance={summary.experiment.provenance} />
          <span className="text-slate-500">
            {summary.experiment.definition.taskIds.length} tasks
            {summary.status === "running" ? ` · running ${summary.progress.done}/${summary.progress.total}` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * `/experiments/overlay?ids=a,b,…`: the arms of several experiments on one
 * cumulative success-by-trial chart, y as % of each arm's tasks (task counts
 * may differ: ALFWorld's 134 environments, HotpotQA's 100 questions), and
 * final-success bars below (one-trial logs, pass@1 — e.g. the Rust ablation).
 * Running experiments are polled, so "your" curve grows beside the authors'.
 */
export function OverlayView({ ids: urlIds }: { ids: readonly string[] }) {
  const router = useRouter();
  // The picker answers at once; the URL follows (router.replace re-renders the page with the same ids).
  const [ids, setChosen] = useState<readonly string[]>(urlIds);
  const [seenUrlIds, setSeenUrlIds] = useState(urlIds.join(","));
  if (urlIds.join(",") !== seenUrlIds) {
    setSeenUrlIds(urlIds.join(","));
    setChosen(urlIds);
  }
  const queries = useQueries({ queries: ids.map((id) => experimentQuery(id)) });
  const summaries = queries.map((query) => query.data).filter((summary): summary is ExperimentSummary => summary !== undefined);
  const failed = queries.map((query, index) => ({ id: ids[index]!, error: query.error })).filter((entry) => entry.error !== null);
  const loading = queries.some((query) => query.isPending);
  const series = overlaySeries(summaries);
  const environment = overlayEnvironment(series);
  const metric = environment ? metricName(environment) : "Success";
  const setIds = (next: string[]) => {
    setChosen(next);
    router.replace(overlayHref(next), { scroll: false });
  };

  return (
    <main className="mx-auto grid w-full max-w-7xl flex-1 gap-4 px-4 py-5 lg:grid-cols-[1fr_18rem]" data-testid="overlay-page" data-series={series.length}>
      <div className="min-w-0 space-y-4">
        <header className="space-y-1">
          <p className="text-xs text-slate-500">
            <Link href="/experiments" className="text-sky-800 hover:underline">
              ← Experiments
            </Link>
          </p>
          <h1 className="text-lg font-semibold text-slate-900">Experiments overlaid</h1>
          <p className="max-w-3xl text-sm text-slate-600">
            Every arm of the chosen experiments on one chart: the share of its tasks solved at or before each trial (cumulative, as in the paper&apos;s
            figures). Imported logs are the authors&apos; own runs; put your experiment on the same tasks beside them.
          </p>
          <OverlayMembers summaries={summaries} />
        </header>

        {failed.map((entry) => (
          <Notice key={entry.id} tone="error">
            Could not load experiment <code className="font-mono">{entry.id}</code>: {entry.error?.message} Untick it on the right.
          </Notice>
        ))}
        {environment === null && series.length > 0 ? (
          <Notice tone="info" data-testid="overlay-mixed-families">
            These experiments are of different task families: each line is the share of its own arm&apos;s tasks solved ({summaries.map((s) => metricName(s.experiment.definition.environment)).join(", ")}).
          </Notice>
        ) : null}

        {ids.length === 0 ? (
          <EmptyState title="No experiment chosen" className="rounded-lg border border-slate-200 bg-white">
            <p data-testid="overlay-empty">Tick experiments on the right (import the paper&apos;s runs first to compare with the authors&apos;).</p>
          </EmptyState>
        ) : loading && summaries.length === 0 ? (
          <p className="flex items-center gap-2 py-10 text-sm text-slate-600">
            <Spinner /> Loading the experiments…
          </p>
        ) : (
          <>
            {hasCurves(series) ? (
              <PageSection
                title="Success by trial"
                id="overlay-curves-heading"
                right={<span className="flex items-center gap-2 text-xs text-slate-600">{metric} {environment && familyDescriptor(environment).metric.oracle ? <OracleLabel /> : null}</span>}
              >
                <SuccessCurves
                  arms={series.map((entry) => ({ ...entry.arm, label: entry.label }))}
                  environment={environment ?? summaries[0]!.experiment.definition.environment}
                  endLabelMax={24}
                  mixedFamilies={environment === null}
                  paperNotes={series.map((entry) => entry.paperNotes ?? null)}
                />
                {environment ? (
                  <p className="mt-3 text-xs text-slate-600" data-testid="metric-explanation">
                    {metricExplanation(environment)}
                  </p>
                ) : null}
              </PageSection>
            ) : null}
            <PageSection title="Final success per arm" id="overlay-bars-heading">
              <FinalBars bars={finalBars(series)} metric={metric} />
            </PageSection>
          </>
        )}
      </div>
      <aside className="min-w-0 rounded-lg border border-slate-200 bg-white p-3 [overflow-wrap:anywhere] lg:self-start">
        <OverlayPicker chosen={ids} onChange={setIds} />
      </aside>
    </main>
  );
}
