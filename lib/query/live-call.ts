import { z } from "zod";
import type { RunEvent } from "@/lib/domain/events";
import { liveCallMessageSchema, type LiveCallMessage } from "@/lib/domain/live-call";
import type { CallActivity } from "@/lib/domain/status";

/**
 * The text a model call has streamed so far, on one branch (DESIGN.md §1:
 * token deltas are transient). Kept under its own query key
 * (`queryKeys.liveCall`), never in the event log cache: it is not an event, and
 * it is dropped as soon as the call's durable events arrive.
 */
export interface LiveCallText {
  role: "actor" | "reflector";
  trial: number;
  /** The Actor step; null for a Self-Reflection call. */
  step: number | null;
  /** ISO-8601 time the call started (identifies the call together with role, trial and step). */
  startedAt: string;
  /** Everything streamed so far, in order. */
  text: string;
  /**
   * The call has returned (`call-end`); its `model-call-end` and step events
   * follow (an Actor step first runs its action in the environment), so the
   * text stays until they arrive.
   */
  ended: boolean;
  /** This tab started listening after the call began (or reconnected): the beginning of the text is missing. */
  joinedLate: boolean;
}

/** Parses an SSE `live-call` message's data with the domain's zod schema; null (and a warning) when it does not match. */
export function parseLiveCallMessage(data: string): LiveCallMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    console.warn("[live-call] ignored a message that is not JSON", data);
    return null;
  }
  const parsed = liveCallMessageSchema.safeParse(json);
  if (!parsed.success) {
    console.warn(`[live-call] ignored a message that does not match the schema:\n${z.prettifyError(parsed.error)}`);
    return null;
  }
  return parsed.data;
}

function isSameCall(current: LiveCallText | null, message: LiveCallMessage): current is LiveCallText {
  return (
    current !== null &&
    current.role === message.role &&
    current.trial === message.trial &&
    current.step === message.step &&
    current.startedAt === message.startedAt
  );
}

/**
 * The branch's live text after one `live-call` message. `call-start` begins an
 * empty text (replacing any earlier call's); `token-delta` appends its piece
 * (a delta of a call this tab never saw start begins a text marked
 * `joinedLate`); `call-end` marks the call ended but keeps its text until its
 * events arrive (see {@link settleLiveCall}). Returns `current` itself when nothing changed.
 */
export function applyLiveCallMessage(current: LiveCallText | null, message: LiveCallMessage): LiveCallText | null {
  const call = { role: message.role, trial: message.trial, step: message.step, startedAt: message.startedAt };
  switch (message.kind) {
    case "call-start":
      return { ...call, text: "", ended: false, joinedLate: false };
    case "token-delta":
      if (message.text === "") return current;
      if (isSameCall(current, message)) return { ...current, text: current.text + message.text };
      return { ...call, text: message.text, ended: false, joinedLate: true };
    case "call-end":
      if (isSameCall(current, message)) return current.ended ? current : { ...current, ended: true };
      // A call whose text we never saw: nothing to show.
      return current;
    case "call-retry":
      // The wait before a retry is shown from the status's `activeCall.retry`; the text so far stays.
      return current;
  }
}

/**
 * Drops the live text once the log has taken over: the call's `model-call-end`
 * or `model-call-error` (same role, trial and step) has arrived, or the branch
 * stopped (`run-pause`, `run-cancel`, `run-end`, `run-error`: a cancelled call
 * leaves no `model-call-end`). Returns `current` itself when it stays.
 */
export function settleLiveCall(current: LiveCallText | null, events: readonly RunEvent[]): LiveCallText | null {
  if (current === null) return null;
  for (const event of events) {
    switch (event.type) {
      case "model-call-end":
      case "model-call-error":
        if (event.data.role === current.role && event.data.trial === current.trial && event.data.step === current.step) return null;
        break;
      case "run-pause":
      case "run-cancel":
      case "run-end":
      case "run-error":
        return null;
      default:
        break;
    }
  }
  return current;
}

/**
 * The call to draw as in flight: the streamed text when this tab has it (also
 * after the call returned, until its events arrive), else the server's
 * `activeCall` with no text yet — a call that began before this tab listened,
 * that has not streamed a token, or that runs in another process (its deltas
 * do not reach this server's stream). Null when neither says a call is in flight.
 */
export function callInFlightView(live: LiveCallText | null, activeCall: CallActivity | null): LiveCallText | null {
  if (live !== null) return live;
  if (activeCall === null) return null;
  return { role: activeCall.role, trial: activeCall.trial, step: activeCall.step, startedAt: activeCall.startedAt, text: "", ended: false, joinedLate: false };
}
