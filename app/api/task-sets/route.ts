import { MAX_TASK_SET_BODY_BYTES, uploadTaskSetRequestSchema } from "@/lib/domain/api";
import { readJsonBounded } from "@/lib/io/bounded-body";
import { InflatedTooLargeError, maxInflatedBytes, textOfUpload } from "@/lib/io/gunzip-bounded";
import { MAX_TASK_SET_INFLATED_BYTES, taskSetTooLarge } from "@/lib/server/task-set-reader";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Uploaded task sets, newest first, with their stored task counts (no task is read). */
export const GET = handle(async () => Response.json({ taskSets: await getServerContext().service.listTaskSets() }));

/**
 * Imports a dataset file (e.g. HotpotQA JSON) as a task set; answers with its first page of tasks and any problems.
 * 413 `too-large` for a body over {@link MAX_TASK_SET_BODY_BYTES}, a `.gz` that decompresses past
 * `MAX_TASK_SET_INFLATED_MB` (or a lower `REFLEXION_MAX_INFLATED_MB`, lib/io/gunzip-bounded.ts), refused before it is all
 * read or inflated, or a set of more than `MAX_TASK_SET_TASKS` tasks (lib/domain/workload-limits.ts).
 */
export const POST = handle(async (request: Request) => {
  const body = uploadTaskSetRequestSchema.parse(await readJsonBounded(request, MAX_TASK_SET_BODY_BYTES, "task set upload"));
  // Binary uploads (e.g. HumanEval.jsonl.gz) arrive as base64; gzip bytes are gunzipped with a bounded output, off the event loop.
  // A task set is inflated to at most MAX_TASK_SET_INFLATED_MB (below the generic limit, which still applies when lower).
  const maxBytes = Math.min(MAX_TASK_SET_INFLATED_BYTES, maxInflatedBytes());
  const content =
    body.encoding === "base64"
      ? await textOfUpload(Buffer.from(body.content, "base64"), { what: "dataset file", maxBytes }).catch((error: unknown) => {
          throw error instanceof InflatedTooLargeError && maxBytes === MAX_TASK_SET_INFLATED_BYTES ? taskSetTooLarge(body.name) : error;
        })
      : body.content;
  return Response.json(await getServerContext().service.importTaskSet(body.environment, body.name, content), { status: 201 });
});
