import type { RunEvent } from "@/lib/domain/events";

/** What {@link readEventPages} needs of a page: its events, where the next one starts, whether it exists. */
export interface EventPageLike {
  events: readonly RunEvent[];
  /** The `after` of the next page (the seq of this page's last event). */
  nextAfter: number;
  /** Another page followed this one when it was read. */
  more: boolean;
}

/** The most pages {@link readEventPages} reads before giving up (5,000 × 1,000 events: far beyond any run). */
export const MAX_EVENT_PAGES = 5000;

/**
 * Reads a branch's events page by page (`GET /api/runs/:runId/events?after=&limit=`, pages of
 * bounded size) from `after` until a page says no more follow, handing each page to `onPage` as
 * it arrives (merge it into the cache there). Returns the seq after the last page: where a stream
 * (`/stream?after=`) picks up. Events appended while paging land on later pages; no event is
 * read twice or skipped, since each page starts after the previous one's last seq.
 * @throws Error when a page says more follow but does not move forward (a server fault: reading
 *   on would loop forever), or after {@link MAX_EVENT_PAGES} pages; whatever `fetchPage` throws.
 */
export async function readEventPages<P extends EventPageLike>(fetchPage: (after: number) => Promise<P>, after: number, onPage: (page: P) => void): Promise<number> {
  let at = after;
  for (let pages = 0; pages < MAX_EVENT_PAGES; pages += 1) {
    const page = await fetchPage(at);
    onPage(page);
    if (!page.more) return Math.max(at, page.nextAfter);
    if (page.nextAfter <= at) throw new Error(`The events page after seq ${at} said more follow but did not move forward (nextAfter ${page.nextAfter}); reload the page to read the log again.`);
    at = page.nextAfter;
  }
  throw new Error(`Stopped reading the run's events after ${MAX_EVENT_PAGES} pages (at seq ${at}); reload the page to go on from there.`);
}
