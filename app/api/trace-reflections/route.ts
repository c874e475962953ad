import { traceReflectionRequestSchema, traceReflectionResponseSchema } from "@/lib/domain/trace-reflection";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { reflectOnTraces, traceReflectionDeps } from "@/lib/server/trace-reflection";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `POST /api/trace-reflections` with `traceReflectionRequestSchema` (lib/domain/trace-reflection.ts):
 * judges an import's traces with the chosen Evaluator, writes a Self-Reflection for each failure and
 * stores it in the named memory store with its provenance; answers `traceReflectionResponseSchema`.
 * 400 for a bad body (naming the field), 404 for an unknown experiment, run or template version.
 */
export const POST = handle(async (request: Request) => {
  const body = await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "trace reflection request");
  const result = await reflectOnTraces(traceReflectionDeps(getServerContext()), traceReflectionRequestSchema.parse(body));
  return Response.json(traceReflectionResponseSchema.parse(result));
});
