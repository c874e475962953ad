import type { Metadata } from "next";
import { Suspense } from "react";
import { SearchPage } from "@/components/search/search-page";

export const metadata: Metadata = { title: "Search trials" };

/** `/search?q=<query>`: search across runs (docs/search.md); fetched client-side through lib/query/search-queries.ts. */
export default function Page() {
  return (
    <Suspense>
      <SearchPage />
    </Suspense>
  );
}
