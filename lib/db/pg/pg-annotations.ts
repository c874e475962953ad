import { and, asc, eq, inArray } from "drizzle-orm";
import { annotationEventSchema, type AnnotationEvent, type AnnotationEventDraft } from "@/lib/domain/annotations";
import type { AnnotationStore } from "../annotation-store";
import { completeDraft, eventOf, requireReferences, rowOf, type AnnotationRow } from "../annotation-rows";
import type { PgDb } from "./database";
import * as schema from "./schema";

type Ready = () => Promise<void>;

/**
 * The PostgreSQL {@link AnnotationStore}: `annotation_events` with `seq` an identity column (so
 * concurrent appends of several app servers get distinct, increasing numbers) and `data` as jsonb.
 * An add is never removed, so checking that a replied-to or edited annotation exists before the
 * insert cannot race with its disappearance.
 */
export class PgAnnotationStore implements AnnotationStore {
  constructor(
    private readonly db: PgDb,
    private readonly ready: Ready = async () => undefined,
  ) {}

  async append(draft: AnnotationEventDraft): Promise<AnnotationEvent> {
    await this.ready();
    await requireReferences(draft, (runId, annotationId) => this.hasAnnotation(runId, annotationId));
    const [stored] = await this.db.insert(schema.annotationEvents).values(rowOf(completeDraft(draft))).returning();
    if (!stored) throw new Error("annotation_events: the event was not stored");
    return fromRow(stored);
  }

  async listForRun(runId: string): Promise<AnnotationEvent[]> {
    return this.listEvents([runId]);
  }

  async listEvents(runIds?: readonly string[]): Promise<AnnotationEvent[]> {
    await this.ready();
    if (runIds && runIds.length === 0) return [];
    const t = schema.annotationEvents;
    const query = this.db.select().from(t);
    const rows = await (runIds ? query.where(inArray(t.runId, [...runIds])) : query).orderBy(asc(t.seq));
    return rows.map(fromRow);
  }

  async importEvents(events: readonly AnnotationEvent[]): Promise<number> {
    await this.ready();
    const valid = events.map((event) => annotationEventSchema.parse(event)).sort((a, b) => a.seq - b.seq);
    if (valid.length === 0) return 0;
    // One statement, rows in seq order: the identity column numbers them in that order.
    const added = await this.db
      .insert(schema.annotationEvents)
      .values(valid.map((event): Omit<AnnotationRow, "seq"> => rowOf(event)))
      .onConflictDoNothing({ target: schema.annotationEvents.id })
      .returning({ id: schema.annotationEvents.id });
    return added.length;
  }

  private async hasAnnotation(runId: string, annotationId: string): Promise<boolean> {
    const t = schema.annotationEvents;
    const rows = await this.db.select({ id: t.id }).from(t).where(and(eq(t.runId, runId), eq(t.annotationId, annotationId), eq(t.type, "annotation-add"))).limit(1);
    return rows.length > 0;
  }
}

function fromRow(row: typeof schema.annotationEvents.$inferSelect): AnnotationEvent {
  return eventOf({ ...row, data: row.data as Record<string, unknown> });
}
