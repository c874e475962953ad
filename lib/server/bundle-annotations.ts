import type { RunStore } from "@/lib/db/store";
import type { BundleRun } from "@/lib/bundles/format";
import type { AnnotationEvent } from "@/lib/domain/annotations";
import { asRunId } from "@/lib/domain/ids";

/** {@link annotationsThatFit}'s answer. */
export interface FittingAnnotations {
  /** The events to import (adds whose node this database has, and the edits and deletes of those). */
  kept: AnnotationEvent[];
  /** Notes (adds) left out, with their edits and deletes: their node is on a branch this database's copy of the run lacks. */
  leftOut: number;
  /** The runs those notes belong to. */
  runsLeftOut: string[];
}

/**
 * The annotation events of a bundle's runs that have a node to sit on in this database, after the
 * import. A run that was here already is kept as it is here (lib/server/bundle-service.ts), so the
 * bundle's newer branches — and the notes made on them — may not exist here: such a note would be
 * stored but shown nowhere. A note fits when its event is one of the stored run's events (any
 * branch) or its branch is one of the stored run's branches (a memory item's id is not an event).
 * Edits and deletes follow their note; one of a note already stored here is kept.
 */
export async function annotationsThatFit(store: RunStore, runs: ReadonlyArray<Pick<BundleRun, "id" | "annotations">>, known: ReadonlySet<string>): Promise<FittingAnnotations> {
  const kept: AnnotationEvent[] = [];
  let leftOut = 0;
  const runsLeftOut: string[] = [];
  for (const run of runs) {
    const events = run.annotations ?? [];
    if (events.length === 0) continue;
    const branches = await store.listBranches(asRunId(run.id));
    const branchIds = new Set<string>(branches.map((branch) => branch.id));
    const eventIds = new Set<string>();
    for (const branch of branches) for (const event of await store.list(asRunId(run.id), branch.id)) eventIds.add(event.id);
    const fits = new Set<string>(known);
    let skipped = 0;
    for (const event of events) {
      if (event.type === "annotation-add") {
        if (eventIds.has(event.target.eventId) || branchIds.has(event.target.branchId)) {
          fits.add(event.annotationId);
          kept.push(event);
        } else skipped += 1;
      } else if (fits.has(event.annotationId)) kept.push(event);
    }
    if (skipped > 0) {
      leftOut += skipped;
      runsLeftOut.push(run.id);
    }
  }
  return { kept, leftOut, runsLeftOut };
}
