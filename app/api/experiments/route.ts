import { experimentDefinitionSchema } from "@/lib/domain/experiment";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Experiments, newest first (lib/domain/experiment.ts `experimentListResponseSchema`): people's own;
 * `?all=1` also lists those optimisations and template checks made for their evaluations.
 */
export const GET = handle(async (request: Request) => {
  const all = new URL(request.url).searchParams.get("all") === "1";
  return Response.json({ experiments: await getServerContext().experiments.list(50, { withDerived: all }) });
});

/** Defines an experiment and queues its runs; answers `{ experimentId }`. */
export const POST = handle(async (request: Request) => {
  const definition = experimentDefinitionSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "experiment definition"));
  const record = await getServerContext().experiments.start(definition);
  return Response.json({ experimentId: record.id }, { status: 201 });
});
