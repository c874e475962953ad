import type { RunRecord } from "@/lib/db/store";
import { AppError } from "@/lib/domain/errors";
import type { BranchId } from "@/lib/domain/ids";
import { READ_ONLY_MESSAGE } from "@/lib/domain/provenance";
import { familyDescriptor } from "@/lib/environments/descriptors";

/**
 * The read-only rule of imported runs (docs/decisions/0015): the root
 * branch of a run whose config carries a provenance is the authors' record and
 * never changes (no pause, resume, cancel, edits or breakpoints); forks of it
 * are ordinary branches. Only HotpotQA imports can be forked: ALFWorld and
 * programming imports have no scene or sandboxed tests to continue from.
 */

/** @throws AppError("conflict") with {@link READ_ONLY_MESSAGE} when `branchId` is the root branch of an imported run. */
export function assertWritable(run: RunRecord, branchId: BranchId, action: string): void {
  if (run.config.provenance && branchId === run.rootBranchId) {
    throw new AppError("conflict", `${READ_ONLY_MESSAGE} (Cannot ${action} run ${run.id}: it was imported from ${run.config.provenance.source}.)`);
  }
}

/** @throws AppError("conflict") when `run` is an imported run whose family cannot continue from the log (ALFWorld, programming). */
export function assertForkable(run: RunRecord): void {
  const provenance = run.config.provenance;
  if (!provenance) return;
  const why = familyDescriptor(run.config.environment).paperLogNotForkable;
  if (why === null) return;
  throw new AppError("conflict", `Run ${run.id} (${provenance.label}, recorded by the authors in 2023) cannot be forked: ${why}. Only imported HotpotQA runs can be forked.`);
}
