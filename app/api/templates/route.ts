import { createTemplateRequestSchema, templateRoleSchema } from "@/lib/domain/template-library";
import { environmentIdSchema } from "@/lib/domain/config";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Templates with their newest version (`templateListResponseSchema`), filtered by `?family=` and `?role=`. */
export const GET = handle(async (request: Request) => {
  const url = new URL(request.url);
  const family = url.searchParams.get("family");
  const role = url.searchParams.get("role");
  const filter = { family: family ? environmentIdSchema.parse(family) : undefined, role: role ? templateRoleSchema.parse(role) : undefined };
  return Response.json({ templates: await getServerContext().templates.list(filter) });
});

/** A new template with its first version → `{ template, version }` (201). */
export const POST = handle(async (request: Request) => {
  const body = createTemplateRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "template"));
  return Response.json(await getServerContext().templates.create(body), { status: 201 });
});
