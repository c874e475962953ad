import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The task families this server offers. */
export const GET = handle(async () => Response.json(getServerContext().service.environments()));
