"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useDeferredValue, useEffect, useState } from "react";
import { experimentListQuery } from "@/lib/query/experiment-queries";
import { reflectionPagesQuery } from "@/lib/query/reflection-queries";
import { Button } from "@/components/ui/button";
import { EmptyState, Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils/cn";
import { ReflectionCard } from "./reflection-card";

type HelpedFilter = "helped" | "not-helped" | "all";

/** `?helped=true|false` ↔ the filter buttons. */
function filterOf(value: string | null): HelpedFilter {
  return value === "true" ? "helped" : value === "false" ? "not-helped" : "all";
}

const inputClass = "h-9 rounded-md border border-slate-300 bg-white px-2.5 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sky-600";

/** The longest search accepted (the server's `q` limit, lib/domain/reflection-outcomes.ts). */
export const SEARCH_MAX = 500;

/**
 * `/reflections`: every reflection of an experiment's runs (or of the recent
 * runs) with the failed trial it came from and whether the next trial
 * succeeded — "reflections that worked" and "reflections that did not help",
 * searchable. The filters live in the URL (`?experimentId=&q=&helped=`), so a
 * list can be shared.
 */
export function ReflectionsPage() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname() ?? "/reflections";
  const experimentId = searchParams.get("experimentId") ?? "";
  const filter = filterOf(searchParams.get("helped"));
  const urlQ = searchParams.get("q") ?? "";
  // A `?q=` longer than the search box takes (a pasted link): searched by its first SEARCH_MAX characters, and said so until the search is changed.
  const [longLinkQ, setLongLinkQ] = useState(urlQ.length > SEARCH_MAX ? urlQ.length : 0);
  const [text, setText] = useState(urlQ.slice(0, SEARCH_MAX));
  const q = useDeferredValue(text.trim().slice(0, SEARCH_MAX));

  const setParams = (next: { experimentId?: string; helped?: HelpedFilter; q?: string }) => {
    const params = new URLSearchParams(searchParams.toString());
    const apply = (key: string, value: string | undefined) => (value ? params.set(key, value) : params.delete(key));
    if (next.experimentId !== undefined) apply("experimentId", next.experimentId);
    if (next.helped !== undefined) apply("helped", next.helped === "helped" ? "true" : next.helped === "not-helped" ? "false" : undefined);
    if (next.q !== undefined) apply("q", next.q);
    const search = params.toString();
    router.replace(`${pathname}${search ? `?${search}` : ""}`, { scroll: false });
  };

  // Keep the typed words in the URL (after typing settles), without a history entry per key.
  useEffect(() => {
    if (q === urlQ) return;
    const timer = window.setTimeout(() => {
      const params = new URLSearchParams(window.location.search);
      if (q) params.set("q", q);
      else params.delete("q");
      const search = params.toString();
      router.replace(`${pathname}${search ? `?${search}` : ""}`, { scroll: false });
    }, 400);
    return () => window.clearTimeout(timer);
  }, [q, urlQ, pathname, router]);

  const experiments = useQuery(experimentListQuery());
  const list = useInfiniteQuery(
    reflectionPagesQuery({ experimentId: experimentId || undefined, q, helped: filter === "all" ? undefined : filter === "helped" }),
  );
  const first = list.data?.pages[0];
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const counts = first?.counts;

  const filters: Array<{ id: HelpedFilter; label: string; count: number | undefined }> = [
    { id: "helped", label: "Worked", count: counts?.helped },
    { id: "not-helped", label: "Did not help", count: counts?.notHelped },
    { id: "all", label: "All", count: counts ? counts.helped + counts.notHelped + counts.noNextTrial : undefined },
  ];

  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="reflections-page">
      <header className="space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">Reflections that worked — and that did not help</h1>
        <p className="max-w-3xl text-sm text-slate-600">
          Each Self-Reflection was written after a failed or halted trial and placed in the episodic memory of the next one. <strong>Worked</strong>: the
          next trial succeeded. <strong>Did not help</strong>: it failed again. Real runs of the paper (imported) and runs made here alike.
        </p>
      </header>

      <div className="flex flex-wrap items-end gap-3" role="search">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Experiment
          <select
            className={cn(inputClass, "max-w-xs")}
            data-testid="reflections-experiment"
            value={experimentId}
            onChange={(event) => setParams({ experimentId: event.target.value })}
          >
            <option value="">All recent runs with more than one trial</option>
            {(experiments.data?.experiments ?? []).map((experiment) => (
              <option key={experiment.id} value={experiment.id}>
                {experiment.provenance ? "● " : ""}
                {experiment.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-xs font-medium text-slate-700">
          Search the reflections, the failed trials&apos; actions and the tasks
          <input
            type="search"
            className={inputClass}
            data-testid="reflections-search"
            placeholder="e.g. search lookup year"
            maxLength={SEARCH_MAX}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setLongLinkQ(0);
            }}
          />
        </label>
        <div className="flex gap-1" role="group" aria-label="Outcome of the next trial">
          {filters.map((entry) => (
            <Button
              key={entry.id}
              size="sm"
              variant={filter === entry.id ? "primary" : "secondary"}
              aria-pressed={filter === entry.id}
              data-testid={`reflections-filter-${entry.id}`}
              onClick={() => setParams({ helped: entry.id })}
            >
              {entry.label}
              {entry.count !== undefined ? <span className="tabular-nums opacity-80"> ({entry.count})</span> : null}
            </Button>
          ))}
        </div>
      </div>

      {longLinkQ > 0 ? (
        <Notice tone="warning" data-testid="reflections-search-too-long">
          The search in the link was {longLinkQ} characters long; searches are limited to {SEARCH_MAX}, so only the first {SEARCH_MAX} are used. A few words are enough.
        </Notice>
      ) : null}

      {list.isPending ? (
        <p className="flex items-center gap-2 py-8 text-sm text-slate-600">
          <Spinner /> Reading the runs&apos; reflections…
        </p>
      ) : list.error ? (
        <Notice tone="error">{list.error.message} Check the filters; reload the page if the server was restarted.</Notice>
      ) : items.length === 0 ? (
        <EmptyState
          title={first && first.runs === 0 ? (experimentId ? "No runs to read" : "No run with more than one trial yet") : "No reflection matches"}
          className="rounded-lg border border-slate-200 bg-white"
        >
          <p data-testid="reflections-empty">
            {first && first.runs === 0
              ? "Import the paper's runs (Import in the header) or run an experiment with a Reflexion arm: the reflections of runs that went on to a next trial appear here."
              : `${first?.runs ?? 0} runs read. Clear the search or pick "All" to see every reflection.`}
          </p>
        </EmptyState>
      ) : (
        <>
          <p className="text-xs text-slate-600" data-testid="reflections-total" data-total={first?.total}>
            {first?.total} {first?.total === 1 ? "reflection" : "reflections"} from {first?.runs} runs{experimentId ? "" : " (the most recent that started more than one trial)"}{list.isFetching && !list.isFetchingNextPage ? " · updating…" : ""}
          </p>
          <ol className="space-y-3" data-testid="reflection-list">
            {items.map((item) => (
              <ReflectionCard key={`${item.runId}:${item.reflectionEventId}`} item={item} />
            ))}
          </ol>
          {list.hasNextPage ? (
            <p className="text-center">
              <Button data-testid="reflections-more" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {list.isFetchingNextPage ? "Loading…" : `Show more (${items.length} of ${first?.total})`}
              </Button>
            </p>
          ) : null}
        </>
      )}
    </main>
  );
}
