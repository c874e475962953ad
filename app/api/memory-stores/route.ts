import { putMemoryStoreSchema } from "@/lib/domain/memory-store";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/memory-stores` → `memoryStoresResponseSchema`: each named memory store with its retention and unexpired entry / task counts. */
export const GET = handle(async () => Response.json({ stores: await getServerContext().memoryStores.list() }, { headers: { "cache-control": "no-store" } }));

/** `PUT /api/memory-stores` with `{ name, retentionDays }`: creates a store or changes its retention; answers with every store. */
export const PUT = handle(async (request: Request) => {
  const body = putMemoryStoreSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "memory store"));
  return Response.json({ stores: await getServerContext().memoryStores.put(body) });
});
