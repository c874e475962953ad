"use client";

import { QueryBox } from "./query-box";

/**
 * A query box that opens the search page (`/search?q=…`) on Enter: on the runs list and an
 * experiment's page (prefilled `experiment:<id>`). A plain GET form once the query parses, so the
 * box renders wherever the list does (no app-router hook).
 */
export function SearchLauncher({ prefill = "", className }: { prefill?: string; className?: string }) {
  return <QueryBox initialQuery={prefill} className={className} action="/search" />;
}
