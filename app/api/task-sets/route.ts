import { MAX_TASK_SET_BODY_BYTES, uploadTaskSetRequestSchema } from "@/lib/domain/api";
import { readJsonBounded } from "@/lib/io/bounded-body";
import { textOfUpload } from "@/lib/io/gunzip-bounded";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Uploaded task sets, newest first. */
export const GET = handle(async () => Response.json({ taskSets: await getServerContext().service.listTaskSets() }));

/**
 * Imports a dataset file (e.g. HotpotQA JSON) as a task set; answers with its tasks and any problems.
 * 413 `too-large` for a body over {@link MAX_TASK_SET_BODY_BYTES} or a `.gz` that decompresses past
 * `REFLEXION_MAX_INFLATED_MB` (lib/io/gunzip-bounded.ts), refused before it is all read or inflated.
 */
export const POST = handle(async (request: Request) => {
  const body = uploadTaskSetRequestSchema.parse(await readJsonBounded(request, MAX_TASK_SET_BODY_BYTES, "task set upload"));
  // Binary uploads (e.g. HumanEval.jsonl.gz) arrive as base64; gzip bytes are gunzipped with a bounded output, off the event loop.
  const content = body.encoding === "base64" ? await textOfUpload(Buffer.from(body.content, "base64"), { what: "dataset file" }) : body.content;
  return Response.json(await getServerContext().service.importTaskSet(body.environment, body.name, content), { status: 201 });
});
