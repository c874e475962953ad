import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/settings/providers[?fresh=1]` → `providersResponseSchema` (lib/domain/providers.ts):
 * each provider's status, variable names, base URL and model list. Never a key value.
 */
export const GET = handle(async (request: Request) => {
  const fresh = new URL(request.url).searchParams.get("fresh") === "1";
  return Response.json(await getServerContext().providers.statuses(fresh), { headers: { "cache-control": "no-store" } });
});
