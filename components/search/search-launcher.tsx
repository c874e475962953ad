"use client";

import { useRouter } from "next/navigation";
import { QueryBox } from "./query-box";

/** A query box that opens the search page (`/search?q=…`) on Enter: on the runs list and an experiment's page (prefilled `experiment:<id>`). */
export function SearchLauncher({ prefill = "", className }: { prefill?: string; className?: string }) {
  const router = useRouter();
  return <QueryBox initialQuery={prefill} className={className} onSearch={(query) => router.push(`/search?q=${encodeURIComponent(query)}`)} />;
}
