import { runLessonsResponseSchema } from "@/lib/domain/memory-store";
import { asRunId } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/runs/:runId/lessons` → `runLessonsResponseSchema`: what every memory store holds from this
 * run, newest first — its reflections kept in a store, and the lessons `reflect-traces` wrote on an
 * imported trace. 404 for an unknown run.
 */
export const GET = handle(async (_request: Request, context: { params: Promise<{ runId: string }> }) => {
  const { runId } = await context.params;
  const { store, memoryStores } = getServerContext();
  const run = await store.getRun(asRunId(runId));
  if (!run) throw new AppError("not-found", `No run ${runId}: check the id (the runs list on the home page, or cli runs).`);
  const entries = await memoryStores.entriesFromRun(run.id, run.config.environment, run.config.taskId);
  return Response.json(runLessonsResponseSchema.parse({ entries }), { headers: { "cache-control": "no-store" } });
});
