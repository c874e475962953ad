import type { OptimisationCandidate, OptimisationRecord } from "@/lib/domain/optimiser/types";
import type { LineageScore } from "@/lib/domain/template-lineage";
import type { OptimisationStore } from "@/lib/db/optimisation-store";

/**
 * What optimisations measured, in the lineage's shape (lib/domain/template-lineage.ts): the scores
 * `GET /api/templates/[templateId]/lineage` puts on a template's versions (lib/server/template-lineage.ts).
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
