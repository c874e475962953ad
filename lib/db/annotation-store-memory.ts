import { annotationEventSchema, type AnnotationEvent, type AnnotationEventDraft } from "@/lib/domain/annotations";
import type { AnnotationStore } from "./annotation-store";
import { completeDraft, requireReferences, runIdOf } from "./annotation-rows";

/**
 * The in-memory {@link AnnotationStore} (tests, `createServerContext({ store })`): an array in
 * `seq` order; it hands out copies (structuredClone), so a caller cannot change what is stored.
 */
export class MemoryAnnotationStore implements AnnotationStore {
  private readonly events: AnnotationEvent[] = [];
  private nextSeq = 1;

  async append(draft: AnnotationEventDraft): Promise<AnnotationEvent> {
    await requireReferences(draft, async (runId, annotationId) => this.events.some((e) => e.type === "annotation-add" && e.target.runId === runId && e.annotationId === annotationId));
    const event = { ...completeDraft(draft), seq: this.nextSeq++ } as AnnotationEvent;
    this.events.push(event);
    return structuredClone(event);
  }

  async listForRun(runId: string): Promise<AnnotationEvent[]> {
    return this.listEvents([runId]);
  }

  async listEvents(runIds?: readonly string[]): Promise<AnnotationEvent[]> {
    const wanted = runIds ? new Set(runIds) : null;
    return this.events.filter((event) => !wanted || wanted.has(runIdOf(event))).map((event) => structuredClone(event));
  }

  async importEvents(events: readonly AnnotationEvent[]): Promise<number> {
    const stored = new Set(this.events.map((event) => event.id));
    let added = 0;
    for (const event of events.map((e) => annotationEventSchema.parse(e)).sort((a, b) => a.seq - b.seq)) {
      if (stored.has(event.id)) continue;
      stored.add(event.id);
      this.events.push({ ...event, seq: this.nextSeq++ });
      added += 1;
    }
    return added;
  }
}
