import type { LineageNode, LineageResponse, LineageScore } from "@/lib/domain/template-lineage";
import type { TemplateService } from "./template-service";

/**
 * A template's versions as lineage nodes (lib/domain/template-lineage.ts), newest first: each with
 * its parent (the version it was edited or mutated from, possibly in another template), number,
 * message, the labels pointing at it, and its measured score from `scoreOf` (null when none was
 * measured; without `scoreOf` every score is null).
 * @throws AppError("not-found") for an unknown template.
 */
export async function templateLineage(
  templates: TemplateService,
  templateId: string,
  scoreOf: (versionId: string) => LineageScore | null | Promise<LineageScore | null> = () => null,
): Promise<LineageResponse> {
  const { template, versions } = await templates.detail(templateId);
  const nodes: LineageNode[] = [];
  for (const version of versions) {
    nodes.push({
      versionId: version.id,
      parentId: version.parentId,
      number: version.number,
      message: version.message,
      createdAt: version.createdAt,
      labels: Object.entries(template.labels)
        .filter(([, id]) => id === version.id)
        .map(([label]) => label)
        .sort(),
      score: await scoreOf(version.id),
    });
  }
  return { templateId: template.id, nodes };
}
