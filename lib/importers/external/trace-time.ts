/**
 * Timestamps of trace exports read as ISO-8601. LangSmith's API writes UTC times without a zone
 * (`2024-04-29T00:49:12.090000`, docs.langchain.com/langsmith/run-data-format) and its JS SDK epoch
 * milliseconds; Inspect and Langfuse write ISO-8601 with a zone.
 */

const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/** Epoch milliseconds of a timestamp (ISO string, zone-less ISO read as UTC, or epoch ms number), or null. */
export function epochMs(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : null;
  if (typeof value !== "string" || value.length < 10) return null;
  const text = /T\d/.test(value) && !HAS_ZONE.test(value) ? `${value}Z` : value;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

/** A timestamp as ISO-8601 (UTC, ms precision), or null when it does not read. */
export function isoTime(value: unknown): string | null {
  const ms = epochMs(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** Milliseconds from `start` to `end`, or null when either is unknown or the span is negative. */
export function spanMs(start: unknown, end: unknown): number | null {
  const a = epochMs(start);
  const b = epochMs(end);
  if (a === null || b === null || b < a) return null;
  return b - a;
}
