import type { RunStore } from "@/lib/db/store";
import type { RunId } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import { principalMayChange } from "@/lib/domain/run-permissions";

/**
 * Who owns what (decision 0041): a run or experiment belongs to the account that created it
 * (`ownerUserId`, stamped from the creating actor). An admin may change anything, a runner only what is
 * theirs; a run or experiment with no owner (made before sign-in, or imported) only an admin.
 */

/** The owner's account id of run `runId`; null when it has none. Throws `not-found` when there is no such run. */
export async function ownerOfRun(store: RunStore, runId: RunId): Promise<string | null> {
  const run = await store.getRun(runId);
  if (!run) throw new AppError("not-found", `No run ${runId}.`);
  return run.ownerUserId ?? null;
}

/** The owner's account id of experiment `experimentId`; null when it has none. Throws `not-found` when there is no such experiment. */
export async function ownerOfExperiment(store: RunStore, experimentId: string): Promise<string | null> {
  const experiment = await store.experiments.getExperiment(experimentId);
  if (!experiment) throw new AppError("not-found", `No experiment ${experimentId}.`);
  return experiment.ownerUserId ?? null;
}

/** True when `principal` may change something owned by `ownerUserId`: the one rule, lib/domain/run-permissions.ts `principalMayChange`. */
export const mayChange = principalMayChange;
