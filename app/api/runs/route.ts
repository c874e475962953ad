import { createRunRequestSchema } from "@/lib/domain/api";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Recent runs, newest first. */
export const GET = handle(async () => Response.json({ runs: await getServerContext().service.listRuns() }));

/** Creates a run and starts it. */
export const POST = handle(async (request: Request) => {
  const body = createRunRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "run request"));
  const run = await getServerContext().service.createRun(body);
  return Response.json({ runId: run.id }, { status: 201 });
});
