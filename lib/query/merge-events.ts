import type { RunStatus } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";

/** What the client caches per run: the event log so far (ordered by seq) and the server's status. */
export interface RunEventsCache {
  events: RunEvent[];
  status: RunStatus;
  lastSeq: number;
}

/**
 * Adds `incoming` events to `existing`, dropping duplicates by `seq` and
 * keeping ascending `seq` order. Returns `existing` itself when nothing was
 * added, so subscribers see no change. The common case (the next events in
 * order) is an append without re-sorting.
 */
export function mergeEvents(existing: RunEventsCache, incoming: readonly RunEvent[], status?: RunStatus): RunEventsCache {
  const nextStatus = status ?? existing.status;
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

  if (events === existing.events && nextStatus === existing.status) return existing;
  return {
    events,
    status: nextStatus,
    lastSeq: Math.max(existing.lastSeq, events[events.length - 1]?.seq ?? 0),
  };
}

/** Terminal statuses: the log will not grow any more (until someone resumes an interrupted run). */
export function isTerminalStatus(status: RunStatus): boolean {
  return status === "ended" || status === "error";
}
