import type { NextRequest } from "next/server";
import { parseAuditQuery } from "@/lib/domain/audit";
import { resolveAuditUser } from "@/lib/server/audit-user";
import { getServerContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/http-errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `GET /api/audit?user=&action=&since=&until=&limit=&offset=`: one page of the audit log, newest
 * first (`AuditPage`, lib/domain/audit.ts; docs/audit.md). Admins only (lib/auth/route-policy.ts).
 * A filter out of range or a time that does not parse is 400 `invalid-input` naming it.
 */
export const GET = handle(async (request: NextRequest) => {
  const params = request.nextUrl.searchParams;
  const query = parseAuditQuery(Object.fromEntries(["user", "action", "since", "until", "limit", "offset"].map((key) => [key, params.get(key)])));
  const server = getServerContext();
  return Response.json(await server.audit.list({ ...query, user: await resolveAuditUser(server.accounts, query.user) }));
});
