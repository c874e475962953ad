import { saveVersionRequestSchema } from "@/lib/domain/template-library";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { decodeParam } from "@/lib/server/template-service";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Saves an edited text (never edits a version) by the library's one rule (`TemplateService.saveEdit`):
 * → `{ version, created, template, newTemplate }`, 201, or 200 when the text equals an existing version.
 * Onto a built-in the text becomes a new template (`newTemplate: true`) whose first version's parent is the built-in version.
 */
export const POST = handle(async (request: Request, context: { params: Promise<{ templateId: string }> }) => {
  const { templateId } = await context.params;
  const body = saveVersionRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "template version"));
  const saved = await getServerContext().templates.saveEdit(decodeParam(templateId), body);
  return Response.json(saved, { status: saved.created ? 201 : 200 });
});
