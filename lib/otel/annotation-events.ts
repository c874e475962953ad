import type { Attributes } from "@opentelemetry/api";
import type { TimedEvent } from "@opentelemetry/sdk-trace-base";
import type { Annotation } from "@/lib/domain/annotations";
import type { RunEvent } from "@/lib/domain/events";
import { hrTimeOf } from "./span-ids";

/**
 * People's annotations in the OTLP export (docs/annotations.md): each one becomes a span event
 * named `annotation` on the span that shows its target — or on the branch's AGENT span when the
 * target draws no span of its own (the run, a memory item, a tree node) — with its id, author,
 * text, tags, score, parent and whether it was deleted, so Phoenix or Langfuse show the notes
 * beside the steps they are about.
 */

/** The span event's name. */
export const ANNOTATION_SPAN_EVENT = "annotation";

/** The key of the span lib/otel/trace-from-log.ts draws for `event`'s node; `agent` when it draws none. */
function spanKeyOf(event: RunEvent, events: readonly RunEvent[]): string {
  const callSpan = (callId: string) => events.find((candidate) => candidate.type === "model-call-end" && candidate.data.callId === callId)?.id ?? "agent";
  switch (event.type) {
    case "model-call-end":
    case "model-call-error":
    case "step-action":
    case "evaluation-end":
      return event.id;
    case "trial-start":
      return `trial:${event.data.trial}`;
    // A thought, reflection or refinement is the text of an LLM span; an observation ends its action's TOOL span.
    case "step-thought":
      return event.data.callId === null ? "agent" : callSpan(event.data.callId);
    case "reflection-end":
    case "refine-feedback":
    case "refine-answer":
      return callSpan(event.data.callId);
    case "step-observation":
      return events.find((candidate) => candidate.type === "step-action" && candidate.data.trial === event.data.trial && candidate.data.step === event.data.step)?.id ?? `trial:${event.data.trial}`;
    default:
      return "agent";
  }
}

/** The attributes of one annotation's span event (`reflexion.annotation.*`). */
export function annotationAttributes(annotation: Annotation): Attributes {
  const { content } = annotation;
  return {
    "reflexion.annotation.id": annotation.id,
    "reflexion.annotation.author": annotation.author,
    "reflexion.annotation.text": content.text,
    "reflexion.annotation.tags": content.tags,
    ...(content.score ? { "reflexion.annotation.score.scale": content.score.scale, "reflexion.annotation.score.value": content.score.value } : {}),
    "reflexion.annotation.deleted": annotation.deleted,
    ...(annotation.parentId !== null ? { "reflexion.annotation.parent_id": annotation.parentId } : {}),
    "reflexion.annotation.target_kind": annotation.target.kind,
    "reflexion.annotation.target_event_id": annotation.target.eventId,
    "reflexion.annotation.updated_by": annotation.updatedBy,
    "reflexion.annotation.edits": annotation.history.length,
  };
}

/**
 * The `annotation` span events of one branch's trace, by the key of the span they go on.
 * `events` are the branch's own events (the annotations given are those this branch's trace carries:
 * see {@link annotationsByBranch}).
 */
export function annotationSpanEvents(annotations: readonly Annotation[], events: readonly RunEvent[]): Map<string, TimedEvent[]> {
  const byId = new Map<string, RunEvent>(events.map((event) => [event.id, event]));
  const spans = new Map<string, TimedEvent[]>();
  for (const annotation of annotations) {
    const event = byId.get(annotation.target.eventId);
    const key = event ? spanKeyOf(event, events) : "agent";
    const timed: TimedEvent = { name: ANNOTATION_SPAN_EVENT, time: hrTimeOf(Date.parse(annotation.createdAt)), attributes: annotationAttributes(annotation), droppedAttributesCount: 0 };
    spans.set(key, [...(spans.get(key) ?? []), timed]);
  }
  return spans;
}

/**
 * Which branch's trace carries each annotation: the branch whose own events hold its target (a
 * note on a fork's shared prefix goes on the parent's span, once), else — a memory item — the
 * branch it was made on, else the first (root) branch.
 */
export function annotationsByBranch(annotations: readonly Annotation[], branches: ReadonlyArray<{ branchId: string; events: readonly RunEvent[] }>): Map<string, Annotation[]> {
  const owner = new Map<string, string>();
  for (const branch of branches) for (const event of branch.events) owner.set(event.id, branch.branchId);
  const known = new Set(branches.map((branch) => branch.branchId));
  const result = new Map<string, Annotation[]>();
  for (const annotation of annotations) {
    const branchId = owner.get(annotation.target.eventId) ?? (known.has(annotation.target.branchId) ? annotation.target.branchId : branches[0]?.branchId);
    if (branchId === undefined) continue;
    result.set(branchId, [...(result.get(branchId) ?? []), annotation]);
  }
  return result;
}
