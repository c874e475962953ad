import type { NextRequest } from "next/server";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { MAX_SEARCH_LIMIT } from "@/lib/server/search-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/search?q=<query>&limit=<n>`: trials across runs matching the query (docs/search.md),
 * a `TrialSearchResult` (lib/domain/search-query.ts). A query that does not parse is 400
 * `{ error: { code: "invalid-query", message, offset } }` (offset: 0-based character of the problem);
 * a `limit` that is not a whole number from 1 to 1000 is 400 `invalid-input`.
 */
export const GET = handle(async (request: NextRequest) => {
  const query = request.nextUrl.searchParams.get("q") ?? "";
  const rawLimit = request.nextUrl.searchParams.get("limit");
  const limit = rawLimit === null ? undefined : Number(rawLimit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)) {
    return Response.json({ error: { code: "invalid-input", message: `limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT} (got "${rawLimit}")` } }, { status: 400 });
  }
  // A query that does not parse throws a SearchQueryError: `handle` answers it with 400 invalid-query and its offset.
  return Response.json(await getServerContext().search.searchTrials(query, { limit }));
});
