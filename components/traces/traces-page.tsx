"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import type { TraceImportResult } from "@/lib/domain/trace-import";
import { experimentListQuery, experimentQuery } from "@/lib/query/experiment-queries";
import { formatShortTime } from "@/components/ui/format";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ReflectPanel } from "./reflect-panel";
import { TraceDropZone } from "./trace-drop-zone";
import { TraceImportNotice } from "./trace-import-notice";

/**
 * `/traces`: Reflexion for an agent that runs elsewhere. Import its traces (OTLP, Inspect, LangSmith,
 * Langfuse) as read-only runs, choose an Evaluator and a Self-Reflection template, write a
 * reflection for each failure into a memory store, and read them back from the agent. The import
 * being reflected on is in the URL (`?experiment=<id>`), so the page survives a reload.
 */
export function TracesPage() {
  const router = useRouter();
  const pathname = usePathname() ?? "/traces";
  const params = useSearchParams();
  const selected = params?.get("experiment") ?? null;
  const [results, setResults] = useState<TraceImportResult[]>([]);
  const list = useQuery(experimentListQuery());
  const imports = (list.data?.experiments ?? []).filter((item) => item.provenance?.kind === "external-trace");
  const select = (experimentId: string) => router.replace(`${pathname}?experiment=${encodeURIComponent(experimentId)}`, { scroll: false });

  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="traces-page">
      <header className="max-w-3xl space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">Reflect on your agent&apos;s traces</h1>
        <p className="text-sm text-slate-600">
          Your agent runs somewhere else — LangGraph, the OpenAI Agents SDK, an Inspect task, your own loop. Import its traces: each becomes a read-only
          run (its turns as thought, tool call and result; its LLM calls with tokens and cost; its score as the Evaluator&apos;s verdict, labelled with
          where it came from). Then let an Evaluator pick the failures, write a Self-Reflection for each, and hand the lessons back for the agent&apos;s next
          attempt.
        </p>
      </header>

      <section aria-labelledby="trace-upload-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="trace-upload-heading" className="text-sm font-semibold text-slate-900">
          1 · Import traces
        </h2>
        <TraceDropZone
          onImported={(added) => {
            setResults((current) => [...added, ...current.filter((old) => !added.some((result) => result.experimentId === old.experimentId))]);
            const last = added.at(-1);
            if (last && last.traces > 0) select(last.experimentId);
          }}
        />
        {results.length > 0 ? (
          <div className="space-y-2" aria-live="polite">
            {results.map((result) => (
              <TraceImportNotice key={`${result.experimentId}-${result.file}`} result={result} />
            ))}
          </div>
        ) : null}
        <p className="text-xs text-slate-600">
          No traces at hand? Try <code>docs/examples/agent-traces.otlp.jsonl</code> or <code>docs/examples/inspect-eval-log.json</code> from the repository.
        </p>
      </section>

      <section aria-labelledby="trace-imports-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="trace-imports-heading" className="text-sm font-semibold text-slate-900">
          2 · Choose an import
        </h2>
        {list.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> Loading the imports…
          </p>
        ) : imports.length === 0 ? (
          <EmptyState title="No traces imported yet">Drop a trace file above; its traces appear here as one import.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="trace-imports">
            {imports.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5 text-sm">
                <button type="button" className={`text-left ${selected === item.id ? "font-semibold text-slate-900" : "text-sky-800 underline"}`} aria-current={selected === item.id ? "true" : undefined} onClick={() => select(item.id)}>
                  {item.name}
                </button>
                <span className="text-xs text-slate-600">
                  {item.total} trace{item.total === 1 ? "" : "s"} · imported {formatShortTime(item.createdAt)} ·{" "}
                  <Link href={`/experiments/${encodeURIComponent(item.id)}`} className="underline">
                    results
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      {selected ? <SelectedImport experimentId={selected} /> : null}
    </main>
  );
}

/** The chosen import's traces and the reflect panel over them. */
function SelectedImport({ experimentId }: { experimentId: string }) {
  const summary = useQuery(experimentQuery(experimentId));
  if (summary.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the import…
      </p>
    );
  }
  if (summary.error) return <Notice tone="error">Could not load import {experimentId}: {summary.error.message}</Notice>;
  const traces = summary.data.cells.map((cell) => ({ runId: cell.runId, taskId: cell.taskId, outcome: cell.outcome }));
  const failed = traces.filter((trace) => trace.outcome === "failure").length;
  return (
    <>
      <p className="text-sm text-slate-700" data-testid="selected-import">
        <strong>{summary.data.experiment.definition.name}</strong>: {traces.length} trace{traces.length === 1 ? "" : "s"}, {failed} not passed (failed by {failed === 1 ? "its" : "their"} own score, or no score recorded).
      </p>
      <ReflectPanel experimentId={experimentId} traces={traces} />
    </>
  );
}
