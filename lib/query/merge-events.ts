import type { RunStatus } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";
import type { CallActivity } from "@/lib/domain/status";

export { isLiveStatus, isTerminalStatus } from "@/lib/domain/status";

/**
 * What the client caches per branch: the event log so far (ordered by seq) and
 * the status the server last reported for it.
 *
 * The client computes no status of its own: the server's one status function
 * (lib/domain/status.ts, log + lease) decides it. The only client rule is
 * ordering: a report older than the one shown never replaces it (see
 * {@link mergeEvents}).
 */
export interface RunEventsCache {
  events: RunEvent[];
  /** Seq of the newest event cached (the `after=` of the next page or stream). */
  lastSeq: number;
  /** The server's status of the branch. */
  status: RunStatus;
  /** The model call a worker was waiting on when `status` was reported (null: none). */
  activeCall: CallActivity | null;
  /**
   * The seq `status` was reported at. A report at an older seq is dropped; see
   * {@link mergeEvents}.
   */
  statusSeq: number;
}

/**
 * A status as the server reported it, with the seq it was computed at (the
 * `lastSeq` of an events page or of an SSE `status` message) and where it came
 * from: the branch's live stream, or a page (the initial load, a catch-up).
 */
export interface StatusReport {
  status: RunStatus;
  seq: number;
  /** The call in flight at that moment; omitted = null. */
  activeCall?: CallActivity | null;
  source: "stream" | "page";
}

/**
 * The status an event fixes by itself at its seq, or null.
 *
 * Only `run-pause` (paused), `run-end` (ended) and `run-error` (error): after
 * them the log no longer says running, and then the server's status is the
 * log's whatever the lease says (`branchStatus` in lib/domain/status.ts). Every
 * other event leaves the status to the lease (queued, running, pausing,
 * cancelling, interrupted), so only the server can report it.
 *
 * Why the client needs this at all: the stream stamps its `status` message with
 * the seq of the last event it had *sent*, although it reads the status just
 * after, so a `paused` can reach us stamped before its own `run-pause`. A page
 * read in between (`running` at a seq between the two) is then newer by stamp
 * and replaces `paused`, and the stream — whose status did not change — would
 * never correct it. The `run-pause` event, when it arrives, re-establishes
 * `paused` at its own seq, where nothing older can displace it.
 */
export function statusFixedBy(event: RunEvent): "paused" | "ended" | "error" | null {
  switch (event.type) {
    case "run-pause":
      return "paused";
    case "run-end":
      return "ended";
    case "run-error":
      return "error";
    default:
      return null;
  }
}

/** An empty cache, before any page or stream message. */
export function emptyRunEventsCache(status: RunStatus): RunEventsCache {
  return { events: [], lastSeq: 0, status, activeCall: null, statusSeq: 0 };
}

function sameCall(a: CallActivity | null, b: CallActivity | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.role === b.role && a.trial === b.trial && a.step === b.step && a.startedAt === b.startedAt;
}

/**
 * Adds `incoming` events to `existing` (dropping duplicates by seq, keeping
 * ascending seq order) and applies a status report. Returns `existing` itself
 * when nothing changed, so subscribers see no change. The common case (the next
 * events in order) is an append without re-sorting.
 *
 * Status: the client shows the status the server reports, newest by seq, and
 * never replaces it with an older one. That takes three rules, no more:
 *
 * 1. A **stream** report applies when its seq is at least the shown one's. The
 *    stream is one ordered channel that reports every change of status or call
 *    in flight, so its latest message is its newest word, also at an equal seq
 *    (a worker claiming the branch, a call starting: no event marks them).
 * 2. A **page** report (initial load, catch-up after a control call or when the
 *    stream ends) applies only when its seq is newer than the shown one's. A
 *    page is read at one moment and may arrive after the stream reported a
 *    change made at that same seq — which the stream would not repeat — so at
 *    an equal seq the stream wins.
 * 3. An event new to the cache that fixes the status by itself
 *    ({@link statusFixedBy}) applies at its own seq, like a report.
 */
export function mergeEvents(existing: RunEventsCache, incoming: readonly RunEvent[], report?: StatusReport): RunEventsCache {
  const last = existing.events[existing.events.length - 1]?.seq ?? 0;
  let events = existing.events;

  // Events new to the cache; a replayed one (a reconnect, an overlapping page) changes nothing.
  let added: RunEvent[] = incoming.filter((event) => event.seq > last);
  const inOrder = added.every((event, index) => event.seq > (added[index - 1]?.seq ?? last));
  if (added.length === incoming.length && inOrder) {
    if (added.length > 0) events = [...existing.events, ...added];
  } else {
    const bySeq = new Map<number, RunEvent>();
    for (const event of existing.events) bySeq.set(event.seq, event);
    added = [];
    for (const event of incoming) {
      if (!bySeq.has(event.seq)) {
        bySeq.set(event.seq, event);
        added.push(event);
      }
    }
    if (added.length > 0) events = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }
  const lastSeq = Math.max(existing.lastSeq, events[events.length - 1]?.seq ?? 0);

  let status = existing.status;
  let activeCall = existing.activeCall;
  let statusSeq = existing.statusSeq;
  const apply = (next: Omit<StatusReport, "source">, newer: (seq: number) => boolean) => {
    if (!newer(next.seq)) return;
    status = next.status;
    activeCall = next.activeCall ?? null;
    statusSeq = next.seq;
  };
  for (const event of added) {
    const fixed = statusFixedBy(event);
    if (fixed !== null) apply({ status: fixed, seq: event.seq, activeCall: null }, (seq) => seq >= statusSeq);
  }
  if (report !== undefined) apply(report, report.source === "stream" ? (seq) => seq >= statusSeq : (seq) => seq > statusSeq);

  if (events === existing.events && status === existing.status && statusSeq === existing.statusSeq && sameCall(activeCall, existing.activeCall)) {
    return existing;
  }
  return { events, lastSeq, status, activeCall: sameCall(activeCall, existing.activeCall) ? existing.activeCall : activeCall, statusSeq };
}
