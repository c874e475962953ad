import { experimentDefinitionSchema } from "@/lib/domain/experiment";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Experiments, newest first (lib/domain/experiment.ts `experimentListResponseSchema`). */
export const GET = handle(async () => Response.json({ experiments: await getServerContext().experiments.list() }));

/** Defines an experiment and queues its runs; answers `{ experimentId }`. */
export const POST = handle(async (request: Request) => {
  const definition = experimentDefinitionSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "experiment definition"));
  const record = await getServerContext().experiments.start(definition);
  return Response.json({ experimentId: record.id }, { status: 201 });
});
