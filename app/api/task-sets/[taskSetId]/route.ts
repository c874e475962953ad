import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Deletes an uploaded task set: 204. Runs keep the tasks they copied into their configs, so nothing
 * recorded is lost. 404 for an unknown id, 400 for `builtin`.
 */
export const DELETE = handle(async (_request: Request, context: { params: Promise<{ taskSetId: string }> }) => {
  const { taskSetId } = await context.params;
  await getServerContext().service.deleteTaskSet(taskSetId);
  return new Response(null, { status: 204 });
});
