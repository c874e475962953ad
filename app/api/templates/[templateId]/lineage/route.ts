import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { templateLineage } from "@/lib/server/template-lineage";
import { decodeParam } from "@/lib/server/template-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The template's version tree (`lineageResponseSchema`, lib/domain/template-lineage.ts); 404 for an unknown template. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ templateId: string }> }) => {
  const { templateId } = await context.params;
  return Response.json(await templateLineage(getServerContext().templates, decodeParam(templateId)));
});
