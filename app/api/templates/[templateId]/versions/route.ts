import { saveVersionRequestSchema } from "@/lib/domain/template-library";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { decodeParam } from "@/lib/server/template-service";
import { readRequestJson, MAX_RICH_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Saves a new version (never edits one) → `{ version, created }`: 201, or 200 when the text equals an existing version. */
export const POST = handle(async (request: Request, context: { params: Promise<{ templateId: string }> }) => {
  const { templateId } = await context.params;
  const body = saveVersionRequestSchema.parse(await readRequestJson(request, MAX_RICH_JSON_BODY_BYTES, "template version"));
  const saved = await getServerContext().templates.saveVersion(decodeParam(templateId), body);
  return Response.json(saved, { status: saved.created ? 201 : 200 });
});
