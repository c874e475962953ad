import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Models the server can call (names only; keys never leave the server): the demo model, the hosted
 * providers' suggestions and what each configured provider's own list endpoint offers
 * (lib/llm/providers/status.ts `listModelOptions`, cached 60 s).
 */
export const GET = handle(async () => Response.json(await getServerContext().providers.models()));
