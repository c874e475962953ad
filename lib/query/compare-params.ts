/**
 * The compare page's address (`/compare?runs=<id>,<id>[,…]`), built and read
 * the same way everywhere. Pure and server-safe (the page parses it on the server).
 */

/** At most this many runs side by side (more lanes would not fit a screen). */
export const MAX_COMPARED_RUNS = 4;

/** The compare page's address for these runs (duplicates dropped, order kept). */
export function compareHref(runIds: readonly string[]): string {
  const ids = [...new Set(runIds.filter((id) => id.length > 0))];
  return `/compare?runs=${ids.map(encodeURIComponent).join(",")}`;
}

/**
 * The run ids of a `runs` search parameter: comma-separated (repeated
 * parameters are joined), trimmed, duplicates dropped, at most {@link MAX_COMPARED_RUNS}.
 */
export function parseCompareRuns(value: string | readonly string[] | undefined | null): string[] {
  const raw = value === undefined || value === null ? [] : typeof value === "string" ? [value] : value;
  const ids = raw
    .flatMap((part) => part.split(","))
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  return [...new Set(ids)].slice(0, MAX_COMPARED_RUNS);
}
