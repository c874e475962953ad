import { otlpSettingsViewSchema } from "@/lib/otel/settings";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The server's OTLP settings as they may be shown: endpoint without credentials, header names without values, the live toggle. */
export const GET = handle(async () => Response.json(otlpSettingsViewSchema.parse(getServerContext().otlp.settings())));
