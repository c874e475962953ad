import type { AnnotationStore } from "@/lib/db/annotation-store";
import type { RunStore } from "@/lib/db/store";
import type { BundleRun } from "@/lib/bundles/format";
import { withoutClassBranches } from "@/lib/domain/class-rules";
import { AppError } from "@/lib/domain/errors";
import { runEventSchema, type RunEvent } from "@/lib/domain/events";
import { asRunId } from "@/lib/domain/ids";

/** What reading a run for a bundle needs: the store, people's annotations (null: none), and the run's class forks to leave out (null: none). */
export interface BundleRunSources {
  store: RunStore;
  annotations: AnnotationStore | null;
  classBranchIds: ((runId: string) => Promise<ReadonlySet<string>>) | null;
}

/**
 * A run as a bundle holds it: its branches (oldest first) without a class's forks and their
 * descendants (students' reflections stay with the class: docs/decisions/0043-class-sessions.md),
 * each branch's own events checked against the event schemas, and its annotations.
 * @throws AppError("not-found") for an unknown run; AppError("conflict") with `ended` when a branch is still running.
 */
export async function readBundleRun(sources: BundleRunSources, runId: string, ended: boolean): Promise<BundleRun> {
  const { store } = sources;
  const run = await store.getRun(asRunId(runId));
  if (!run) throw new AppError("not-found", `No run ${runId}.`);
  const all = await store.listBranches(run.id);
  const branches = sources.classBranchIds ? withoutClassBranches(all, await sources.classBranchIds(run.id)) : all;
  const events: RunEvent[] = [];
  for (const branch of branches) {
    const summary = ended ? await store.getBranchSummary(branch.id) : null;
    if (summary?.status === "running") {
      throw new AppError("conflict", `Run ${run.id} has a branch that is still running (${branch.id}). Export it when it has ended or is paused.`);
    }
    const path = await store.list(run.id, branch.id);
    for (const event of path) if (event.branchId === branch.id) events.push(runEventSchema.parse(event));
  }
  const annotations = sources.annotations ? await sources.annotations.listForRun(run.id) : [];
  return {
    id: run.id,
    createdAt: run.createdAt,
    title: run.title,
    rootBranchId: run.rootBranchId,
    branches: branches.map((branch) => ({ id: branch.id, parentBranchId: branch.parentBranchId, forkSeq: branch.forkSeq, createdAt: branch.createdAt })),
    events,
    ...(annotations.length > 0 ? { annotations } : {}),
  };
}
