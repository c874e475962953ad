"use client";

import { QueryBox } from "./query-box";

/**
 * A query box that opens the search page (`/search?q=…`) on Enter: on the runs list and an
 * experiment's page (prefilled `experiment:<id>`). A plain navigation, so the box renders wherever
 * the list does (no app-router hook).
 */
export function SearchLauncher({ prefill = "", className }: { prefill?: string; className?: string }) {
  return <QueryBox initialQuery={prefill} className={className} onSearch={(query) => window.location.assign(`/search?q=${encodeURIComponent(query)}`)} />;
}
