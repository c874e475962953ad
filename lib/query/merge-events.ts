import type { RunStatus } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";

/** What the client caches per run: the event log so far (ordered by seq) and the server's status. */
export interface RunEventsCache {
  events: RunEvent[];
  status: RunStatus;
  lastSeq: number;
  /**
   * The newest seq `status` is known to account for: the seq of the event it
   * was derived from, or the `lastSeq` the server reported with it. A status
   * reported at an older seq never replaces it (see {@link mergeEvents}).
   */
  statusSeq: number;
}

/**
 * A status as a source reported it, with the seq of the newest event it
 * accounts for (`lastSeq` of an events page or of an SSE `status` message).
 */
export interface StatusReport {
  status: RunStatus;
  seq: number;
}

/**
 * The status an event sets on the log (as `foldRun` does), or null when the
 * event does not change it. The server's status is the log's, except
 * `interrupted` for a log that says running with no executor, so these events
 * are the newest word on the status at their seq.
 */
export function statusSetBy(event: RunEvent): RunStatus | null {
  switch (event.type) {
    case "run-start":
    case "branch-start":
    case "run-resume":
      return "running";
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
  return { events: [], status, lastSeq: 0, statusSeq: 0 };
}

/**
 * Adds `incoming` events to `existing`, dropping duplicates by `seq` and
 * keeping ascending `seq` order, and updates the status. Returns `existing`
 * itself when nothing changed, so subscribers see no change. The common case
 * (the next events in order) is an append without re-sorting.
 *
 * Status: the newest incoming event that sets a status (run-pause, run-resume,
 * run-end, …) sets it at its seq; then `status` (a reported status) is applied
 * unless it was reported at an older seq than the cached one. A bare status
 * (no seq) counts as reported at the merged `lastSeq`: use it only for a
 * status that is at least as new as every event cached (the stream's own
 * messages, which follow the events they account for). So a status computed
 * before a `run-pause` (a control call's answer, a page fetched earlier) can
 * never overwrite the `paused` the stream already delivered.
 */
export function mergeEvents(existing: RunEventsCache, incoming: readonly RunEvent[], status?: RunStatus | StatusReport): RunEventsCache {
  const last = existing.events[existing.events.length - 1]?.seq ?? 0;
  let events = existing.events;

  const fresh = incoming.filter((event) => event.seq > last);
  const inOrder = fresh.every((event, index) => event.seq > (fresh[index - 1]?.seq ?? last));
  if (fresh.length === incoming.length && inOrder) {
    if (fresh.length > 0) events = [...existing.events, ...fresh];
  } else {
    const bySeq = new Map<number, RunEvent>();
    for (const event of existing.events) bySeq.set(event.seq, event);
    let added = false;
    for (const event of incoming) {
      if (!bySeq.has(event.seq)) {
        bySeq.set(event.seq, event);
        added = true;
      }
    }
    if (added) events = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }
  const lastSeq = Math.max(existing.lastSeq, events[events.length - 1]?.seq ?? 0);

  let nextStatus = existing.status;
  let statusSeq = existing.statusSeq;
  for (const event of incoming) {
    const set = statusSetBy(event);
    if (set !== null && event.seq > statusSeq) {
      nextStatus = set;
      statusSeq = event.seq;
    }
  }
  if (status !== undefined) {
    const report = typeof status === "string" ? { status, seq: lastSeq } : status;
    if (report.seq >= statusSeq) {
      nextStatus = report.status;
      statusSeq = report.seq;
    }
  }

  if (events === existing.events && nextStatus === existing.status && statusSeq === existing.statusSeq) return existing;
  return { events, status: nextStatus, lastSeq, statusSeq };
}

/** Terminal statuses: the log will not grow any more (until someone resumes an interrupted run). */
export function isTerminalStatus(status: RunStatus): boolean {
  return status === "ended" || status === "error";
}
