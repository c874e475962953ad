import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { namesModeOf } from "@/lib/domain/strip-names";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Sends the run's traces (every branch, built from its log) as OTLP/HTTP protobuf to the server's
 * configured endpoint (`REFLEXION_OTLP_ENDPOINT`, headers from `REFLEXION_OTLP_HEADERS`; never from
 * the request). `?names=strip` replaces people's names with pseudonyms (docs/audit.md).
 * → `{ endpoint, spans, requests }`; 400 when no endpoint is set, 502 when the collector fails.
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  return Response.json(await getServerContext().otlp.send(runId, undefined, namesModeOf(new URL(request.url).searchParams.get("names"))));
});
