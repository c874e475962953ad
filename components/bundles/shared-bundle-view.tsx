"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { sharedBundleResponseSchema, type SharedRun } from "@/lib/bundles/api";
import { Badge } from "@/components/ui/badge";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { fetchJson, isNotFound } from "@/lib/query/fetch-json";
import { parseRunUrlState, runMomentHref } from "@/lib/query/url-state";
import { DEMO_MODEL_NOTE, isDemoModel } from "@/lib/domain/model-id";

const OUTCOME_TONE = { success: "green", failure: "red", cancelled: "neutral" } as const;

function RunRow({ run, href }: { run: SharedRun; href: string }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="shared-run" data-run-id={run.id}>
      <div className="min-w-0">
        <Link href={href} className="font-medium text-slate-900 underline-offset-2 hover:underline" data-testid="shared-run-link">
          {run.title}
        </Link>
        <p className="mt-0.5 text-xs text-slate-600">
          {run.environment} · {run.strategy} · model <code className="font-mono">{run.modelId}</code>
          {isDemoModel(run.modelId) ? ` (${DEMO_MODEL_NOTE})` : ""} · {run.branches} branch{run.branches === 1 ? "" : "es"} · recorded {new Date(run.createdAt).toLocaleString()}
        </p>
      </div>
      {run.outcome ? (
        <Badge tone={OUTCOME_TONE[run.outcome]}>
          {run.outcome} after {run.trials} trial{run.trials === 1 ? "" : "s"}
        </Badge>
      ) : (
        <Badge tone="neutral">not ended</Badge>
      )}
    </li>
  );
}

/**
 * `/shared/<hash>`: a read-only view of a bundle imported here, by its manifest's content
 * hash — what it holds and its runs, each opening the run workspace read-only. The query
 * (`?run=&branch=&cursor=&node=`, the run page's deep links) is passed on to the run, so a teacher's
 * link to a moment opens that moment on every student's machine once they have imported the bundle.
 */
export function SharedBundleView({ hash }: { hash: string }) {
  const router = useRouter();
  const search = useSearchParams();
  const moment = parseRunUrlState(search);
  const wantedRun = search.get("run");
  const view = useQuery({ queryKey: ["shared-bundle", hash], queryFn: ({ signal }) => fetchJson(`/api/bundles/${encodeURIComponent(hash)}`, sharedBundleResponseSchema, { signal }), retry: false });
  const runs = view.data?.runs ?? [];
  const target = wantedRun ? runs.find((run) => run.id === wantedRun) : runs.length === 1 ? runs[0] : undefined;
  const deepLink = wantedRun !== null || moment.branch !== null || moment.cursor !== null || moment.node !== null;

  useEffect(() => {
    if (target && deepLink) router.replace(runMomentHref(target.id, moment));
  }, [target, deepLink, moment, router]);

  if (view.isPending) {
    return (
      <EmptyState title="Opening the shared bundle…">
        <Spinner />
      </EmptyState>
    );
  }
  if (view.isError) {
    return (
      <main className="mx-auto w-full max-w-3xl px-4 py-8">
        {isNotFound(view.error) ? (
          <EmptyState title="This bundle is not in this app yet" action={<Link className="text-sm font-medium text-sky-800 underline" href="/">Go to the home page to import it</Link>}>
            The link names a bundle by its content hash <code className="font-mono text-xs">{hash.slice(0, 16)}…</code>. Import the bundle file once (drop it on the home page, or{" "}
            <code className="font-mono text-xs">npm run cli -- import &lt;file&gt;</code>), then open this link again.
          </EmptyState>
        ) : (
          <Notice tone="error" title="The shared bundle could not be loaded">
            {view.error.message}
          </Notice>
        )}
      </main>
    );
  }
  const { manifest } = view.data;
  return (
    <main className="mx-auto w-full max-w-5xl px-4 py-6" data-testid="shared-bundle">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-base font-semibold text-slate-900">{manifest.subject.title}</h1>
        <Badge tone="amber" className="ring-1 ring-inset ring-amber-300">
          Imported bundle · read-only
        </Badge>
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {manifest.subject.kind === "experiment" ? "An experiment" : "A run"} exported {new Date(manifest.createdAt).toLocaleString()} by Reflexion Playground {manifest.appVersion} · {manifest.counts.runs} run
        {manifest.counts.runs === 1 ? "" : "s"}, {manifest.counts.events} events, {manifest.counts.cacheEntries} cached model responses · from <code className="font-mono">{view.data.fileName}</code>
      </p>
      <p className="mt-1 break-all text-[11px] text-slate-500" data-testid="shared-hash">
        content SHA-256 {view.data.contentSha256}
      </p>
      <Notice className="mt-3">
        Open a run to see it as it was recorded. <strong>Replay recorded</strong> in its header re-runs it from the cached responses that came in the bundle — zero model calls, no
        key needed — and <strong>Fork here</strong> on an evaluation or reflection continues it live with a model you pick.
      </Notice>
      {view.data.experiments.length > 0 ? (
        <p className="mt-3 text-sm">
          Experiment:{" "}
          {view.data.experiments.map((experiment) => (
            <Link key={experiment.id} href={`/experiments/${experiment.id}`} className="font-medium text-sky-800 underline">
              {experiment.name}
            </Link>
          ))}
        </p>
      ) : null}
      <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {runs.map((run) => (
          <RunRow key={run.id} run={run} href={runMomentHref(run.id, moment)} />
        ))}
      </ul>
    </main>
  );
}
