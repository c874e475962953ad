import { randomUUID } from "node:crypto";
import { annotationEventSchema, type AnnotationEvent, type AnnotationEventDraft } from "@/lib/domain/annotations";
import { AppError } from "@/lib/domain/errors";

/**
 * The one mapping between an {@link AnnotationEvent} and a row of `annotation_events` that the
 * SQLite, PostgreSQL and in-memory adapters share: the columns (`id`, `seq`, `run_id`,
 * `annotation_id`, `type`, `occurred_at`) and `data`, the rest of the event as JSON.
 */
export interface AnnotationRow {
  id: string;
  seq: number;
  runId: string;
  annotationId: string;
  type: string;
  data: Record<string, unknown>;
  occurredAt: string;
}

/** An event before the store numbers it: every field of an {@link AnnotationEvent} but `seq` (per event type). */
export type UnsequencedEvent = { [K in AnnotationEvent["type"]]: Omit<Extract<AnnotationEvent, { type: K }>, "seq"> }[AnnotationEvent["type"]];

/** The run an event belongs to (an add names it in its target). */
export function runIdOf(event: AnnotationEventDraft | UnsequencedEvent): string {
  return event.type === "annotation-add" ? event.target.runId : event.runId;
}

/**
 * Checks a draft and gives it an id and its time (the store adds `seq`).
 * @throws ZodError when the draft breaks lib/domain/annotations.ts's schema (an unknown score scale, a bad tag, no author).
 */
export function completeDraft(draft: AnnotationEventDraft, now: () => Date = () => new Date()): UnsequencedEvent {
  const { seq: _seq, ...event } = annotationEventSchema.parse({ ...draft, id: randomUUID(), seq: 0, occurredAt: draft.occurredAt ?? now().toISOString() });
  return event;
}

/** The row of a stored event, without its `seq` (the store assigns it). */
export function rowOf(event: UnsequencedEvent): Omit<AnnotationRow, "seq"> {
  const { id, type, annotationId, occurredAt } = event;
  const data: Record<string, unknown> =
    event.type === "annotation-add"
      ? { target: event.target, parentId: event.parentId, author: event.author, content: event.content, origin: event.origin }
      : event.type === "annotation-edit"
        ? { author: event.author, content: event.content }
        : { author: event.author };
  return { id, runId: runIdOf(event), annotationId, type, data, occurredAt };
}

/** The event a row holds (parsed, so a hand-edited row with a bad shape fails loudly here). */
export function eventOf(row: AnnotationRow): AnnotationEvent {
  return annotationEventSchema.parse({ ...row.data, id: row.id, seq: Number(row.seq), runId: row.runId, annotationId: row.annotationId, type: row.type, occurredAt: row.occurredAt });
}

/**
 * What an append must find first: the annotation an edit, delete or reply names, on the same run.
 * `known` answers whether the run has an `annotation-add` with that id.
 * @throws AppError("not-found") naming the missing annotation.
 */
export async function requireReferences(draft: AnnotationEventDraft, known: (runId: string, annotationId: string) => Promise<boolean>): Promise<void> {
  const runId = runIdOf(draft);
  if (draft.type === "annotation-add") {
    if (draft.parentId !== null && !(await known(runId, draft.parentId))) throw new AppError("not-found", `Run ${runId} has no annotation ${draft.parentId} to reply to; list them with \`cli annotations --run ${runId}\`.`);
    return;
  }
  if (!(await known(runId, draft.annotationId))) throw new AppError("not-found", `Run ${runId} has no annotation ${draft.annotationId}; list them with \`cli annotations --run ${runId}\`.`);
}
