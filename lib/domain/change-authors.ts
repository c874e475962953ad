import type { EventType, RunEvent } from "./events";

/**
 * Who changed a run (docs/audit.md): the changes people make — edits, a fork's start, pause and
 * cancel requests — folded with their actor's name, so the inspector and the memory panel can say
 * "edited by alice · 14:02". Events without an actor (written before actors were recorded, or with
 * none known) are not listed: nothing is shown for them.
 */

/** Event types that are a person's change to a run. */
export const CHANGE_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  "reflection-edit",
  "memory-edit",
  "prompt-edit",
  "settings-edit",
  "action-edit",
  "budget-edit",
  "branch-start",
  "pause-request",
  "cancel-request",
]);

/** Who made a change and when. */
export interface ChangeAuthor {
  /** The actor's name as recorded (`alice`, `alice (token ci)`, `lesson reflexion-101`). */
  name: string;
  /** ISO-8601 time of the event. */
  at: string;
}

/** One attributed change on the branch's path. */
export interface ChangeView extends ChangeAuthor {
  eventId: string;
  seq: number;
  type: EventType;
  /** Trials started when it was made: the change takes effect from trial `trialsStarted + 1` (or within trial `trialsStarted` for an action). */
  trialsStarted: number;
}

/** The author of `event` when it is an attributed change, else null. */
export function changeAuthorOf(event: RunEvent): ChangeAuthor | null {
  return event.actor && CHANGE_TYPES.has(event.type) ? { name: event.actor.name, at: event.occurredAt } : null;
}
