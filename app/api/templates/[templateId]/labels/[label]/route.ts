import { moveLabelRequestSchema } from "@/lib/domain/template-library";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { decodeParam } from "@/lib/server/template-service";
import { readRequestJson, MAX_JSON_BODY_BYTES } from "@/lib/io/bounded-body";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Points a label at a version of the template → `{ template }`. */
export const PUT = handle(async (request: Request, context: { params: Promise<{ templateId: string; label: string }> }) => {
  const { templateId, label } = await context.params;
  const body = moveLabelRequestSchema.parse(await readRequestJson(request, MAX_JSON_BODY_BYTES, "label move"));
  return Response.json({ template: await getServerContext().templates.moveLabel(decodeParam(templateId), decodeParam(label), body.versionId) });
});
