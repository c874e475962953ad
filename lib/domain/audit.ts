import { z } from "zod";
import { actorSchema } from "./actor";
import { AppError } from "./errors";

/**
 * The audit log (docs/audit.md): who did what, when, to what, and how it went. One entry per
 * state-changing API request (after it ran, refused ones too) and per audited CLI command.
 */
export const auditEntrySchema = z.object({
  id: z.string().min(1),
  /** ISO-8601 time the request or command finished. */
  at: z.string(),
  actor: actorSchema,
  /** `POST /api/runs/[runId]/fork` (method and route pattern) or `cli users add`. */
  action: z.string().min(1),
  /** What it acted on: the route's params (`{ runId }`) or the command's arguments. */
  target: z.record(z.string(), z.unknown()),
  /** The HTTP status; for a CLI command 0 when it succeeded, else its exit code. */
  status: z.number().int(),
  /** The error message of a refused or failed request, else null. */
  detail: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The most entries one page of the audit log holds. */
export const MAX_AUDIT_PAGE = 500;

/** A listing of the audit log; every filter is optional. */
export const auditQuerySchema = z.object({
  /** A person: their account id (`userId`) or the actor's name exactly (`alice`, `worker w-3f2a`). */
  user: z.string().min(1).optional(),
  /** Actions starting with this (`POST /api/runs`, `cli`). */
  action: z.string().min(1).optional(),
  /** Entries at or after this ISO-8601 time. */
  since: z.string().min(1).optional(),
  /** Entries before this ISO-8601 time. */
  until: z.string().min(1).optional(),
  /** Page size, 1–{@link MAX_AUDIT_PAGE} (default 50). */
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(50),
  /** Entries skipped (newest first), for paging. */
  offset: z.coerce.number().int().min(0).default(0),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditQueryInput = z.input<typeof auditQuerySchema>;

/** `GET /api/audit`: one page, newest first, and how many entries match in all. */
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), total: z.number().int().nonnegative() });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** True when `entry` matches `query`'s filters (the in-memory store's rule; the SQL adapters say the same in SQL). */
export function auditEntryMatches(entry: AuditEntry, query: Omit<AuditQuery, "limit" | "offset">): boolean {
  if (query.user !== undefined && entry.actor.userId !== query.user && entry.actor.name !== query.user) return false;
  if (query.action !== undefined && !entry.action.startsWith(query.action)) return false;
  if (query.since !== undefined && entry.at < query.since) return false;
  if (query.until !== undefined && entry.at >= query.until) return false;
  return true;
}

/**
 * Parses the filters of a listing (API query string, CLI flags): `since`/`until` may be any time
 * `Date` reads (`2026-12-05`, `2026-12-05T14:00Z`) and become ISO-8601 UTC.
 * @throws ZodError naming the field when a filter or the page is out of range; AppError("invalid-input")
 *   saying what to write when a time does not parse.
 */
export function parseAuditQuery(input: Record<string, string | number | undefined | null>): AuditQuery {
  const present = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined && value !== null && value !== ""));
  const parsed = auditQuerySchema.parse(present);
  return { ...parsed, ...timeOf("since", parsed.since), ...timeOf("until", parsed.until) };
}

function timeOf(field: "since" | "until", value: string | undefined): Partial<AuditQuery> {
  if (value === undefined) return {};
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) {
    throw new AppError("invalid-input", `${field} must be a date or time such as 2026-12-05 or 2026-12-05T14:00Z (got "${value}").`);
  }
  return { [field]: time.toISOString() };
}
