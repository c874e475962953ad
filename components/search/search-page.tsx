"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { trialSearchQuery, SearchRequestError } from "@/lib/query/search-queries";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { QueryBox } from "./query-box";
import { SearchResults } from "./search-results";

/** `/search?q=<query>`: the query box and the trials it finds; the query lives in the URL, so a search is a link. */
export function SearchPage() {
  const router = useRouter();
  const pathname = usePathname() ?? "/search";
  const params = useSearchParams();
  const query = params?.get("q") ?? null;
  const search = useQuery(trialSearchQuery(query, 100));
  const serverError = search.error instanceof SearchRequestError ? { message: search.error.message, offset: search.error.offset } : null;
  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-4 py-6" data-testid="search-page">
      <header className="space-y-1">
        <h1 className="text-lg font-semibold text-slate-900">Search trials</h1>
        <p className="text-sm text-slate-600">
          Every trial of every run and branch: filter by field, compare numbers, search the text of thoughts, actions, observations and reflections. Each row opens the node on the run page.
        </p>
      </header>
      <QueryBox key={query ?? ""} initialQuery={query ?? ""} error={serverError} onSearch={(next) => router.replace(`${pathname}?q=${encodeURIComponent(next)}`, { scroll: false })} />
      {query === null ? null : search.isPending ? (
        <Spinner label="Searching…" />
      ) : search.error && !serverError ? (
        <Notice tone="error" title="Search failed">
          {search.error.message}
        </Notice>
      ) : search.data ? (
        <SearchResults result={search.data} />
      ) : null}
    </main>
  );
}
