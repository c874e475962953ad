import type { OptimisationCandidate, OptimisationRecord } from "@/lib/domain/optimiser/types";
import type { LineageNode, LineageResponse, LineageScore } from "@/lib/domain/template-lineage";
import type { TemplateVersion } from "@/lib/domain/template-library";
import type { OptimisationStore } from "@/lib/db/optimisation-store";
import type { TemplateService } from "@/lib/server/template-service";

/**
 * A template's lineage (lib/domain/template-lineage.ts) with what optimisations measured: its
 * versions as a tree, each with the newest optimisation's score for it, and the root's parent
 * when it is a version of another template (a built-in the candidates were mutated from).
 */

/** A candidate's record as the lineage's {@link LineageScore}. */
export function lineageScoreOf(record: OptimisationRecord, candidate: OptimisationCandidate): LineageScore {
  return {
    optimisationId: record.id,
    round: candidate.round,
    train: candidate.train,
    heldOut: candidate.heldOut,
    pVsParent: candidate.pVsParent,
    onFront: candidate.onFront,
    costUsd: candidate.costUsd,
    tokens: candidate.tokens,
    failuresRead: candidate.failuresRead,
  };
}

/**
 * Per version id, the score of the newest optimisation that measured it, over the optimisations
 * whose candidates went into `templateId` (its starting version included, wherever it lives).
 */
export async function optimiserScoresForTemplate(store: OptimisationStore, templateId: string): Promise<Map<string, LineageScore>> {
  const scores = new Map<string, LineageScore>();
  for (const record of await store.listOptimisations({ targetTemplateId: templateId })) {
    for (const candidate of record.candidates) {
      if (candidate.versionId === null || scores.has(candidate.versionId)) continue;
      if (candidate.train === null && candidate.heldOut === null) continue;
      scores.set(candidate.versionId, lineageScoreOf(record, candidate));
    }
  }
  return scores;
}

/**
 * `GET /api/templates/[templateId]/lineage`: the template's versions (oldest first) with labels and
 * scores, plus the root's parent from another template when there is one.
 * @throws AppError("not-found") for an unknown template (from the template service).
 */
export async function templateLineage(templates: TemplateService, store: OptimisationStore, templateId: string): Promise<LineageResponse> {
  const { template, versions } = await templates.detail(templateId);
  const scores = await optimiserScoresForTemplate(store, templateId);
  const labelsOf = (versionId: string) => Object.entries(template.labels).filter(([, id]) => id === versionId).map(([label]) => label).sort();
  const node = (version: TemplateVersion, labels: string[]): LineageNode => ({
    versionId: version.id,
    parentId: version.parentId,
    number: version.number,
    message: version.message,
    createdAt: version.createdAt,
    labels,
    score: scores.get(version.id) ?? null,
  });
  const own = new Set(versions.map((version) => version.id));
  const nodes = [...versions].sort((a, b) => a.number - b.number).map((version) => node(version, labelsOf(version.id)));
  const outside = [...new Set(versions.map((version) => version.parentId).filter((id): id is string => id !== null && !own.has(id)))];
  const external: LineageNode[] = [];
  for (const id of outside) {
    const found = await templates.resolve(id).catch(() => null);
    if (found) external.push(node(found.version, Object.entries(found.template.labels).filter(([, v]) => v === id).map(([label]) => label).sort()));
  }
  return { templateId, nodes: [...external, ...nodes] };
}
