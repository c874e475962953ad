import type { RunRecord } from "@/lib/db/store";
import { AppError } from "@/lib/domain/errors";
import type { BranchId } from "@/lib/domain/ids";
import { READ_ONLY_MESSAGE, READ_ONLY_TRACE_MESSAGE, traceProvenanceLabel } from "@/lib/domain/provenance";
import { familyDescriptor } from "@/lib/environments/descriptors";
import { EXTERNAL_FAMILY_ID } from "@/lib/environments/external/descriptor";

/**
 * The read-only rule of imported runs (docs/decisions/0015): the root
 * branch of a run whose config carries a provenance is the authors' record and
 * never changes (no pause, resume, cancel, edits or breakpoints); forks of it
 * are ordinary branches. Only HotpotQA imports can be forked: ALFWorld and
 * programming imports have no scene or sandboxed tests to continue from.
 */

/** @throws AppError("conflict") with {@link READ_ONLY_MESSAGE} when `branchId` is the root branch of an imported run. */
export function assertWritable(run: RunRecord, branchId: BranchId, action: string): void {
  if (run.config.provenance?.kind === "external-trace" && branchId === run.rootBranchId) {
    throw new AppError("conflict", `${READ_ONLY_TRACE_MESSAGE} (Cannot ${action} run ${run.id}: ${traceProvenanceLabel(run.config.provenance)}.)`);
  }
  if (run.config.provenance && branchId === run.rootBranchId) {
    throw new AppError("conflict", `${READ_ONLY_MESSAGE} (Cannot ${action} run ${run.id}: it was imported from ${run.config.provenance.source}.)`);
  }
}

/** @throws AppError("conflict") when `run` is an imported trace (never forkable), or an imported run whose family cannot continue from the log (ALFWorld, programming). */
export function assertForkable(run: RunRecord): void {
  const provenance = run.config.provenance;
  if (!provenance) return;
  if (provenance.kind === "external-trace") {
    // Whatever family the run is shown as (an own export comes back under its own family), its task is a recorded-only stand-in.
    throw new AppError("conflict", `Run ${run.id} (${traceProvenanceLabel(provenance)}) cannot be forked: ${familyDescriptor(EXTERNAL_FAMILY_ID).paperLogNotForkable}.`);
  }
  const why = familyDescriptor(run.config.environment).paperLogNotForkable;
  if (why === null) return;
  throw new AppError("conflict", `Run ${run.id} (${provenance.label}, recorded by the authors in 2023) cannot be forked: ${why}. Only imported HotpotQA runs can be forked.`);
}
