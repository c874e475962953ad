"use client";

import { queryOptions } from "@tanstack/react-query";
import { deadLetterListResponseSchema, discardResponseSchema, retryAllResponseSchema, retryResultSchema } from "@/lib/domain/dead-letter-actions";
import { rateLimitViewSchema } from "@/lib/domain/rate-limit-view";
import { fetchJson } from "@/lib/query/fetch-json";

/** Every query of the /jobs page starts with this key: the dead-letter actions invalidate it whole. */
export const JOBS_QUERY_KEY = ["jobs"] as const;

/** `GET /api/jobs/dead-letters`, refreshed every 5 s while the page is open. */
export const deadLettersQuery = () =>
  queryOptions({
    queryKey: [...JOBS_QUERY_KEY, "dead-letters"] as const,
    queryFn: ({ signal }) => fetchJson("/api/jobs/dead-letters", deadLetterListResponseSchema, { signal }),
    refetchInterval: 5_000,
    retry: 1,
  });

/** `GET /api/jobs/rate-limits`, refreshed every 5 s (a 429's block lasts seconds). */
export const rateLimitsQuery = () =>
  queryOptions({
    queryKey: [...JOBS_QUERY_KEY, "rate-limits"] as const,
    queryFn: ({ signal }) => fetchJson("/api/jobs/rate-limits", rateLimitViewSchema, { signal }),
    refetchInterval: 5_000,
    retry: 1,
  });

/** `POST /api/jobs/dead-letters/:id/retry`: enqueues the letter's branch again (a refusal rejects with the server's sentence). */
export const retryDeadLetter = (letterId: string) =>
  fetchJson(`/api/jobs/dead-letters/${encodeURIComponent(letterId)}/retry`, retryResultSchema, { method: "POST" });

/** `POST /api/jobs/dead-letters/:id/discard`. */
export const discardDeadLetter = (letterId: string) =>
  fetchJson(`/api/jobs/dead-letters/${encodeURIComponent(letterId)}/discard`, discardResponseSchema, { method: "POST" });

/** `POST /api/jobs/dead-letters/retry-all`. */
export const retryAllDeadLetters = () => fetchJson("/api/jobs/dead-letters/retry-all", retryAllResponseSchema, { method: "POST" });
