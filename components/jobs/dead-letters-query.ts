"use client";

import { queryOptions } from "@tanstack/react-query";
import { deadLettersResponseSchema } from "@/lib/domain/job-queue";
import { fetchJson } from "@/lib/query/fetch-json";

/** `GET /api/jobs/dead-letters` (issue 17), refreshed every 5 s while the page is open. */
export const deadLettersQuery = () =>
  queryOptions({
    queryKey: ["jobs", "dead-letters"] as const,
    queryFn: ({ signal }) => fetchJson("/api/jobs/dead-letters", deadLettersResponseSchema, { signal }),
    refetchInterval: 5_000,
    retry: 1,
  });
