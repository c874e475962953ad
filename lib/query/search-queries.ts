"use client";

import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import type { TrialSearchResult } from "@/lib/domain/search-query";
import { ApiRequestError } from "./fetch-json";

/** Search across runs (`GET /api/search`, docs/search.md) for the query box and the search page. */

const nodeMatchSchema = z.object({ eventId: z.string(), field: z.enum(["thought", "action", "observation", "reflection"]), step: z.number().nullable(), snippet: z.string() });
const trialHitSchema = z.object({
  runId: z.string(),
  branchId: z.string(),
  runTitle: z.string(),
  family: z.string(),
  strategy: z.string(),
  taskId: z.string(),
  experimentId: z.string().nullable(),
  arm: z.string().nullable(),
  trial: z.number(),
  outcome: z.enum(["success", "failure", "halted"]).nullable(),
  costUsd: z.number().nullable(),
  steps: z.number(),
  repeat: z.number(),
  repeatedAction: z.string().nullable(),
  eventId: z.string(),
  matches: z.array(nodeMatchSchema),
});
/** zod schema of {@link TrialSearchResult} (what the route answers). */
export const trialSearchResultSchema: z.ZodType<TrialSearchResult> = z.object({
  query: z.string(),
  normalized: z.string(),
  hits: z.array(trialHitSchema),
  total: z.number(),
  truncated: z.boolean(),
  tookMs: z.number(),
});

/** A query the server could not parse: the parser's message and the 0-based offset of the problem. */
export class SearchRequestError extends ApiRequestError {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(400, "invalid-query", message);
    this.name = "SearchRequestError";
  }
}

const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string(), offset: z.number().optional() }) });

/** `GET /api/search?q=&limit=`; a bad query throws {@link SearchRequestError}, any other failure an {@link ApiRequestError}. */
export async function fetchTrialSearch(query: string, limit: number, signal?: AbortSignal): Promise<TrialSearchResult> {
  const response = await fetch(`/api/search?q=${encodeURIComponent(query)}&limit=${limit}`, { headers: { accept: "application/json" }, cache: "no-store", signal });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = errorBodySchema.safeParse(body);
    if (parsed.success && parsed.data.error.offset !== undefined) throw new SearchRequestError(parsed.data.error.message, parsed.data.error.offset);
    throw new ApiRequestError(response.status, parsed.success ? parsed.data.error.code : "internal", parsed.success ? parsed.data.error.message : `Search failed (HTTP ${response.status}).`);
  }
  return trialSearchResultSchema.parse(body);
}

/** The search of `query` (not run while `query` is null: nothing searched yet). */
export const trialSearchQuery = (query: string | null, limit = 50) =>
  queryOptions({
    queryKey: ["search", query, limit] as const,
    queryFn: ({ signal }) => fetchTrialSearch(query ?? "", limit, signal),
    enabled: query !== null,
    staleTime: 5_000,
    retry: false,
  });
