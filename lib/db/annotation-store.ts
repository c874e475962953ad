import type { AnnotationEvent, AnnotationEventDraft } from "@/lib/domain/annotations";

/**
 * Storage of the annotation log (lib/domain/annotations.ts; table `annotation_events`). Append-only:
 * edits and deletes are events too. Adapters: SQLite, in-memory and PostgreSQL; one contract suite
 * runs on all three (tests/db/annotation-store-contract.ts).
 */
export interface AnnotationStore {
  /**
   * Appends one event, giving it an id, the next `seq` and (unless given) the time.
   * @throws AppError("not-found") for an edit, delete or reply naming an annotation the run does not have.
   */
  append(draft: AnnotationEventDraft): Promise<AnnotationEvent>;
  /** Every event of a run, by `seq`. */
  listForRun(runId: string): Promise<AnnotationEvent[]>;
  /** Every event of these runs (all runs when omitted), by `seq` — search's `tag:` filter and exports read it. */
  listEvents(runIds?: readonly string[]): Promise<AnnotationEvent[]>;
  /**
   * Stores events exactly as given (ids, seqs relative order and times kept; new seqs assigned) —
   * a bundle import. Events whose `id` is already stored are skipped, so importing twice adds nothing.
   * @returns how many were added.
   */
  importEvents(events: readonly AnnotationEvent[]): Promise<number>;
}
