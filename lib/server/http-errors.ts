import { ZodError } from "zod";
import { describePgError, isDatabaseUnreachable } from "@/lib/db/pg/describe-pg-error";
import { isAppError, type AppErrorCode } from "@/lib/domain/errors";
import { isSearchQueryError } from "@/lib/domain/search-query";
import { describeIssues } from "@/lib/domain/describe-issues";
import type { Principal } from "@/lib/domain/roles";
import { runAsPrincipal } from "@/lib/actors/actor-context";
import { authorizeRequest, refusedPrincipal } from "./authorize";
import { auditRequest } from "./audit-hook";

const statusByCode: Record<AppErrorCode, number> = {
  "not-found": 404,
  "invalid-input": 400,
  "invalid-dataset": 422,
  "too-large": 413,
  conflict: 409,
  "stale-edit": 409,
  "provider-not-configured": 400,
  "model-call-failed": 502,
  unauthenticated: 401,
  forbidden: 403,
  gone: 410,
  "rate-limited": 429,
  internal: 500,
};

/**
 * Maps any thrown value to a JSON error response `{ error: { code, message } }`
 * (lib/domain/api.ts `apiErrorSchema`). The one place errors become HTTP. An unreachable
 * database (shared mode's PostgreSQL down or restarting) is 503 `database-unreachable` with the
 * driver's cause (e.g. `connect ECONNREFUSED 127.0.0.1:5432`); any other unexpected error is a
 * bare 500 (no SQL or parameters reach the client) with the cause in the server log.
 */
export function errorResponse(error: unknown): Response {
  const { status, code, message } = publicError(error);
  // A search query that does not parse also says where (0-based character), for the query box's caret.
  const offset = isSearchQueryError(error) ? { offset: error.offset } : {};
  return Response.json({ error: { code, message, ...offset } }, { status });
}

/**
 * What a client may be told about a thrown value — the HTTP status, code and message of
 * {@link errorResponse} — for routes and for streams (an SSE `stream-error`). Logs the cause of
 * an unexpected error on the server; never returns SQL, parameters or a password.
 */
export function publicError(error: unknown): { status: number; code: string; message: string } {
  if (isAppError(error)) return { status: statusByCode[error.code], code: error.code, message: error.message };
  if (error instanceof ZodError) {
    return { status: 400, code: "invalid-input", message: describeIssues(error, "body") };
  }
  if (isSearchQueryError(error)) return { status: 400, code: "invalid-query", message: error.message };
  if (error instanceof SyntaxError) return { status: 400, code: "invalid-input", message: `The request body is not valid JSON: ${error.message}` };
  if (isDatabaseUnreachable(error)) {
    // Shared mode's PostgreSQL is down or restarting: say so (the cause names host and port, never a password; no SQL, no params).
    const cause = describePgError(error);
    console.error(`[api] the database is unreachable: ${cause}`);
    return {
      status: 503,
      code: "database-unreachable",
      message: `The database is unreachable: ${cause.replace(/ \(while: .*\)$/, "")} — check REFLEXION_DATABASE_URL and that PostgreSQL is running, then retry.`,
    };
  }
  // The log gets the driver's cause and the statement's kind (not the parameters); the client only that it failed.
  console.error(`Unexpected error: ${describePgError(error)}`, error instanceof Error && error.stack ? `\n${error.stack}` : "");
  return { status: 500, code: "internal", message: "Unexpected server error; see the server log." };
}

/**
 * Wraps a route handler: authenticates and authorizes the request first (`authorizeRequest`, against
 * lib/auth/route-policy.ts: 401 without a valid session or token, 403 without the role or for a
 * cross-site state-changing request), runs the handler as the request's actor (a `public` route asked
 * anonymously runs as nobody) (events it appends record who), audits a state-changing request
 * after it ran, and sends every failure through {@link errorResponse}.
 */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    let principal: Principal | null;
    try {
      principal = await authorizeRequest(args);
    } catch (error) {
      // Refused (401/403) requests are audited too, under who asked when a 403 knows it.
      const refused = errorResponse(error);
      await auditRequest(refusedPrincipal(error), args, refused);
      return refused;
    }
    let response: Response;
    try {
      // A public route asked without a session or token (null) runs as nobody and is not audited.
      const signedIn = principal;
      response = signedIn ? await runAsPrincipal(signedIn, () => fn(...args)) : await fn(...args);
    } catch (error) {
      response = errorResponse(error);
    }
    if (principal) await auditRequest(principal, args, response);
    return response;
  };
}
