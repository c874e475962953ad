import { createTemplateRequestSchema, templateRoleSchema } from "@/lib/domain/template-library";
import { environmentEntry } from "@/lib/environments/registry";
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
  // An unknown family is a 400 naming the registered ones (environmentEntry throws invalid-input).
  const filter = { family: family ? environmentEntry(family).descriptor.id : undefined, role: role ? templateRoleSchema.parse(role) : undefined };
  return Response.json({ templates: await getServerContext().templates.list(filter) });
});

/** A new template with its first version → `{ template, version }` (201). */
export const POST = handle(async (request: Request) => {
  const body = createTemplateRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "template"));
  return Response.json(await getServerContext().templates.create(body), { status: 201 });
});
