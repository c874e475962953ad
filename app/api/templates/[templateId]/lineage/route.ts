import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";
import { templateLineage } from "@/lib/server/template-lineage";
import { optimiserScoresForTemplate } from "@/lib/server/optimiser/lineage";
import { decodeParam } from "@/lib/server/template-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The template's version tree (`lineageResponseSchema`, lib/domain/template-lineage.ts) with the optimiser's scores; 404 for an unknown template. */
export const GET = handle(async (_request: Request, context: { params: Promise<{ templateId: string }> }) => {
  const { templateId } = await context.params;
  const id = decodeParam(templateId);
  const server = getServerContext();
  // Scores come from the optimisations whose candidates went into this template (null for versions never measured).
  const scores = await optimiserScoresForTemplate(server.optimisations, id);
  return Response.json(await templateLineage(server.templates, id, (versionId) => scores.get(versionId) ?? null));
});
