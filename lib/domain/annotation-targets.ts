import type { AnnotationTarget, AnnotationTargetKind } from "./annotations";
import type { EventType, MemoryItem, RunEvent } from "./events";

/**
 * Which node of the run graph an event draws, for annotations: the target kind each annotatable
 * event type has (lib/graph/derive-run-graph.ts gives these nodes the event's id). Events that
 * draw no node of their own (model calls, checkpoints, edits, trial ends) are not annotatable: a
 * person annotates the step, verdict or reflection they produced.
 */
export const ANNOTATABLE_EVENT_KINDS: Partial<Record<EventType, AnnotationTargetKind>> = {
  "run-start": "run",
  "trial-start": "trial",
  "step-thought": "thought",
  "step-action": "action",
  "step-observation": "observation",
  "evaluation-end": "evaluation",
  "reflection-end": "reflection",
  "refine-feedback": "refinement",
  "refine-answer": "refinement",
  "model-call-error": "call-error",
  "tree-node": "tree-node",
};

const STEP_KINDS: ReadonlySet<AnnotationTargetKind> = new Set(["thought", "action", "observation"]);

/**
 * The target an annotation on `event` has when made on `branchId`: kind, trial, step and seq read
 * from the event itself (never from a client). Null for an event that draws no node.
 */
export function targetOfEvent(event: RunEvent, branchId: string): Omit<AnnotationTarget, "runId"> | null {
  const kind = ANNOTATABLE_EVENT_KINDS[event.type];
  if (!kind) return null;
  const data = event.data as { trial?: unknown; step?: unknown };
  const trial = typeof data.trial === "number" ? data.trial : null;
  const step = STEP_KINDS.has(kind) && typeof data.step === "number" ? data.step : null;
  return { branchId, eventId: event.id, kind, trial: kind === "run" ? null : trial, step, seq: event.seq };
}

/**
 * Every memory item a branch's events name (the episodic memory at each trial's start — in the
 * window and evicted —, hand edits of memory, and reflections carried in from a memory store), by id;
 * the last mention wins. A reflection's item has the `reflection-end` event's id.
 */
export function memoryItemsOf(events: readonly RunEvent[]): Map<string, MemoryItem> {
  const items = new Map<string, MemoryItem>();
  for (const event of events) {
    if (event.type === "trial-start") for (const item of [...event.data.memory, ...event.data.evicted]) items.set(item.id, item);
    else if (event.type === "memory-edit") for (const item of event.data.newMemory) items.set(item.id, item);
    else if (event.type === "memory-carried-in") for (const entry of event.data.entries) items.set(entry.itemId, { id: entry.itemId, text: entry.text, trial: null });
  }
  return items;
}

/** Human name of an event type for messages: which node kinds can be annotated. */
export function annotatableTypesText(): string {
  return Object.keys(ANNOTATABLE_EVENT_KINDS).join(", ");
}
