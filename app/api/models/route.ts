import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Models the server can call (names only; keys never leave the server). */
export const GET = handle(async () => Response.json(getServerContext().models()));
