import { BRANCH_SUMMARY_VERSION } from "@/lib/domain/branch-summary";
import { experimentSummarySchema, repeatsOf, type ExperimentSummary } from "@/lib/domain/experiment";
import type { ExperimentStore } from "@/lib/db/experiment-store";
import type { StoredExperimentRecord } from "@/lib/db/stored-experiment";

/**
 * The maintained summary of a finished experiment. Computing an experiment's results is cheap in
 * database reads (one join, decision 0012) but not in CPU once it is large: at 5,000 runs the
 * bootstrap intervals and the paired tests (2,000 resamples each, lib/domain/stats/bootstrap.ts)
 * take most of a second. Once every cell's run has ended nothing in the summary changes any more,
 * so it is computed once and stored (table `experiment_summaries`) with the fingerprint of the
 * cells it came from (one aggregate query: cells, ended runs, the sum of their newest seqs, plus
 * the rules' versions). Every read checks the fingerprint first, so a summary is never served for
 * other cells than its own: a resumed cell, a new run or any append recomputes it. While runs are
 * still going on nothing is stored (statuses then depend on leases and time).
 */

/** Bumped when `summarizeExperiment`'s rules or the summary's shape change: stored summaries are recomputed. */
export const EXPERIMENT_SUMMARY_VERSION = 1;

/**
 * The experiment's summary: the stored one when its fingerprint still matches, else `compute()`'s,
 * stored when the experiment is finished (every cell has a run and every run has ended).
 * A damaged record's summary is never stored (its record is read leniently each time).
 * @throws whatever `compute` or the store throws.
 */
export async function maintainedSummary(store: ExperimentStore, record: StoredExperimentRecord, compute: () => Promise<ExperimentSummary>): Promise<ExperimentSummary> {
  if (record.damaged) return compute();
  const print = await store.cellsFingerprint(record.id);
  const total = record.definition.taskIds.length * record.definition.arms.length * repeatsOf(record.definition);
  const finished = total > 0 && print.cells === total && print.ended === total;
  if (!finished) return compute();
  const fingerprint = `v${EXPERIMENT_SUMMARY_VERSION}.${BRANCH_SUMMARY_VERSION}:${print.cells}:${print.ended}:${print.lastSeqSum}`;
  const saved = await store.getMaintainedSummary(record.id);
  if (saved?.fingerprint === fingerprint) {
    const parsed = experimentSummarySchema.safeParse(saved.summary);
    // A row that no longer parses (an older shape) is recomputed and replaced below.
    // The record is the one just read (the schema keeps only the fields it knows of a stored one).
    if (parsed.success) return { ...parsed.data, experiment: record };
  }
  const summary = await compute();
  // Only an experiment whose status can no longer change is kept.
  if (summary.status !== "running") await store.saveMaintainedSummary(record.id, fingerprint, summary);
  return summary;
}
