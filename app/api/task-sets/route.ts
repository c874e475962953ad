import { uploadTaskSetRequestSchema } from "@/lib/domain/api";
import { decodeBuffer } from "@/lib/environments/code/loaders";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Uploaded task sets, newest first. */
export const GET = handle(async () => Response.json({ taskSets: await getServerContext().service.listTaskSets() }));

/** Imports a dataset file (e.g. HotpotQA JSON) as a task set; answers with its tasks and any problems. */
export const POST = handle(async (request: Request) => {
  const body = uploadTaskSetRequestSchema.parse(await request.json());
  // Binary uploads (e.g. HumanEval.jsonl.gz) arrive as base64; decodeBuffer gunzips gzip bytes.
  const content = body.encoding === "base64" ? decodeBuffer(Buffer.from(body.content, "base64")) : body.content;
  return Response.json(await getServerContext().service.importTaskSet(body.environment, body.name, content), { status: 201 });
});
