import type { BranchId } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import type { BranchRecord } from "./store";

/** One stretch of a branch path: the events of `branchId` with `seq ≤ maxSeq` (null = all). */
export interface PathSegment {
  branchId: BranchId;
  maxSeq: number | null;
}

/**
 * The segments a branch sees, root first (DESIGN.md §1: a branch sees its
 * parent's events with `seq ≤ forkSeq`, recursively, then its own). Because a
 * branch numbers its own events from `forkSeq + 1`, concatenating the segments
 * in order yields contiguous `seq`s.
 *
 * @throws AppError("not-found") when a branch in the chain is missing.
 */
export function branchPath(leaf: BranchId, getBranch: (id: BranchId) => BranchRecord | null): PathSegment[] {
  const segments: PathSegment[] = [];
  let current: BranchId | null = leaf;
  let limit: number | null = null;
  const seen = new Set<string>();
  while (current !== null) {
    if (seen.has(current)) throw new AppError("internal", `Branch cycle at ${current}`);
    seen.add(current);
    const branch = getBranch(current);
    if (!branch) throw new AppError("not-found", `No branch ${current}`);
    segments.unshift({ branchId: branch.id, maxSeq: limit });
    // An ancestor is seen only up to the smallest fork point below it (a fork of a
    // fork at seq 3 must not see the grandparent's seq 4, even if the parent forked at 5).
    if (branch.forkSeq !== null) limit = limit === null ? branch.forkSeq : Math.min(limit, branch.forkSeq);
    current = branch.parentBranchId;
  }
  return segments;
}
