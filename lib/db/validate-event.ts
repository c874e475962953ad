import { EVENT_SCHEMA_VERSION, runEventSchema, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { AppError } from "@/lib/domain/errors";
import { stripUrlCredentials } from "@/lib/domain/url-credentials";
import { currentActor } from "@/lib/actors/actor-context";

/**
 * The error texts of a draft with any URL's user name and password removed (a provider's error may
 * quote the URL it was given): no password reaches the log, whatever threw.
 */
function withoutUrlCredentials(draftEvent: EventDraft): EventDraft["data"] {
  const data = draftEvent.data as Record<string, unknown>;
  const field = draftEvent.type === "run-pause" ? "detail" : draftEvent.type === "model-call-error" || draftEvent.type === "run-error" ? "message" : null;
  const text = field === null ? undefined : data[field];
  if (field === null || typeof text !== "string") return draftEvent.data;
  const clean = stripUrlCredentials(text);
  return clean === text ? draftEvent.data : ({ ...data, [field]: clean } as EventDraft["data"]);
}

/** `{ actor }` when there is one, else nothing (the envelope's `actor` is optional). */
export function actorField<A>(actor: A | null | undefined): { actor?: A } {
  return actor ? { actor } : {};
}

/**
 * Turns a draft into a stored event with its envelope, validated against the
 * event catalogue. Throws AppError("invalid-input") naming the type and the
 * first schema problem, so a bad event never reaches the log. The event's actor is the draft's own,
 * else the actor of the work in progress (lib/actors/actor-context.ts, `runAs`), else none (left out):
 * the store stamps it, so the engine stays unaware of who drives it.
 */
export function materializeEvent(
  draftEvent: EventDraft,
  envelope: { id: string; runId: string; branchId: string; seq: number; occurredAt: string },
): RunEvent {
  const candidate = {
    id: envelope.id,
    runId: envelope.runId,
    branchId: envelope.branchId,
    seq: envelope.seq,
    schemaVersion: EVENT_SCHEMA_VERSION,
    occurredAt: envelope.occurredAt,
    causedBy: draftEvent.causedBy ?? null,
    // No actor known: the field is left out, so such an event reads (and hashes in a bundle) as before actors were recorded.
    ...actorField(draftEvent.actor ?? currentActor() ?? null),
    type: draftEvent.type,
    data: withoutUrlCredentials(draftEvent),
  };
  const parsed = runEventSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      "invalid-input",
      `Refusing to store a malformed "${draftEvent.type}" event: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim(),
    );
  }
  return parsed.data;
}
