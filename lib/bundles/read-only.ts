import type { RunRecord } from "@/lib/db/store";
import { AppError } from "@/lib/domain/errors";
import type { BranchId } from "@/lib/domain/ids";
import { READ_ONLY_BUNDLE_MESSAGE } from "@/lib/domain/provenance";
import { assertForkable as assertPaperRunForkable, assertWritable as assertPaperRunWritable } from "@/lib/importers/read-only";

/**
 * The read-only rule of imported runs, for both kinds of import: the authors' logs
 * (lib/importers/read-only.ts) and run bundles. Every branch that came in a bundle
 * (`provenance.bundleBranchIds`; the root when absent) is a record: no pause, resume, cancel,
 * edits or breakpoints. Forks made here are ordinary branches.
 * @throws AppError("conflict") with the reason and what to do instead.
 */
export function assertWritable(run: RunRecord, branchId: BranchId, action: string): void {
  const provenance = run.config.provenance;
  if (provenance?.kind === "bundle") {
    const recorded = provenance.bundleBranchIds ? provenance.bundleBranchIds.includes(branchId) : branchId === run.rootBranchId;
    if (recorded) throw new AppError("conflict", `${READ_ONLY_BUNDLE_MESSAGE} (Cannot ${action} run ${run.id}: it came in ${provenance.source}.)`);
    return;
  }
  assertPaperRunWritable(run, branchId, action);
}

/**
 * Whether a fork can continue the run: a bundled run forks like any run made here, unless its task
 * is a recorded-only stand-in (a bundled ALFWorld or programming paper-log import: no scene or tests).
 * @throws AppError("conflict") saying why not.
 */
export function assertForkable(run: RunRecord): void {
  const provenance = run.config.provenance;
  if (provenance?.kind === "bundle") {
    if (run.config.task.recordedOnly === true) {
      throw new AppError("conflict", `Run ${run.id} came in a bundle of a recorded-only import (${provenance.notes[1] ?? provenance.source}): it has no scene or tests to continue from, so it cannot be forked.`);
    }
    return;
  }
  assertPaperRunForkable(run);
}
