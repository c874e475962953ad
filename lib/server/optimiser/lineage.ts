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
 * Per version id, its score over the optimisations whose candidates went into `templateId` (their
 * starting versions included, wherever they live). A version is shown with the score of the
 * optimisation that proposed it (its own round ≥ 1 record, where "p vs parent" was measured), so
 * its children's tests and its own rate come from the same place; a proposal repeated by a later
 * optimisation (`proposedAgain`) counts next; only a version no optimisation proposed (a starting
 * version) takes the newest round-0 score.
 */
export async function optimiserScoresForTemplate(store: OptimisationStore, templateId: string): Promise<Map<string, LineageScore>> {
  const proposed = new Map<string, LineageScore>();
  const proposedAgain = new Map<string, LineageScore>();
  const started = new Map<string, LineageScore>();
  for (const record of await store.listOptimisations({ targetTemplateId: templateId })) {
    for (const candidate of record.candidates) {
      if (candidate.versionId === null) continue;
      if (candidate.train === null && candidate.heldOut === null) continue;
      const scores = candidate.round === 0 ? started : candidate.proposedAgain ? proposedAgain : proposed;
      if (!scores.has(candidate.versionId)) scores.set(candidate.versionId, lineageScoreOf(record, candidate));
    }
  }
  const merged = new Map(started);
  for (const [versionId, score] of proposedAgain) merged.set(versionId, score);
  for (const [versionId, score] of proposed) merged.set(versionId, score);
  return merged;
}
