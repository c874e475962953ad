import { newPriceSchema } from "@/lib/llm/pricing";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/settings/prices` → `priceTableResponseSchema` (lib/llm/pricing.ts): every price row (history kept) and the rows in force now. */
export const GET = handle(async () => Response.json(await getServerContext().prices.table(), { headers: { "cache-control": "no-store" } }));

/**
 * `PUT /api/settings/prices` with `newPriceSchema` (`{ modelId, inputUsdPerMTok, outputUsdPerMTok, cachedInputUsdPerMTok?, note? }`,
 * USD per 1M tokens): appends a row dated now (older rows stay as history); answers with the table.
 */
export const PUT = handle(async (request: Request) => {
  const server = getServerContext();
  await server.prices.set(newPriceSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "price")));
  return Response.json(await server.prices.table());
});
