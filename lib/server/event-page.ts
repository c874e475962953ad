import type { BranchId, RunId } from "@/lib/domain/ids";
import type { RunEvent } from "@/lib/domain/events";
import type { EventLog } from "@/lib/engine/ports";

/** One page of a branch's events: at most the asked number, in seq order, and whether more followed. */
export interface StoredEventPage {
  events: RunEvent[];
  /** More events with a larger seq were stored when the page was read. */
  more: boolean;
}

/**
 * Reads one page of a branch path's events with `seq > after`: at most `limit` (≥ 1) of them.
 * Asks the store for one event more than the page holds, so whether another page follows is known
 * without a second query. Events appended meanwhile are simply on a later page: pages never
 * overlap and never skip (each starts after the previous page's last seq).
 * @throws whatever the store throws (AppError("not-found") for an unknown branch).
 */
export async function readStoredEventPage(log: Pick<EventLog, "list">, runId: RunId, branchId: BranchId, after: number, limit: number): Promise<StoredEventPage> {
  const size = Math.max(1, Math.floor(limit));
  const events = await log.list(runId, branchId, after, size + 1);
  const more = events.length > size;
  return { events: more ? events.slice(0, size) : events, more };
}
