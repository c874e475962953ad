import { abRequestSchema } from "@/lib/domain/template-library";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** "Compare versions": starts a two-arm experiment differing only in one role's template version → `{ experimentId }` (201). */
export const POST = handle(async (request: Request) => {
  const body = abRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "A/B request"));
  return Response.json(await getServerContext().templateWorkbench.startAb(body), { status: 201 });
});
