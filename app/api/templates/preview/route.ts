import { previewRequestSchema } from "@/lib/domain/template-library";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The prompt the engine would send for a recorded trial with this template (`previewResponseSchema`). */
export const POST = handle(async (request: Request) => {
  const body = previewRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "template preview"));
  return Response.json(await getServerContext().templateWorkbench.preview(body));
});
