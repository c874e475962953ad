import { ZodError } from "zod";
import { describePgError, isDatabaseUnreachable } from "@/lib/db/pg/describe-pg-error";
import { isAppError, type AppErrorCode } from "@/lib/domain/errors";

const statusByCode: Record<AppErrorCode, number> = {
  "not-found": 404,
  "invalid-input": 400,
  "invalid-dataset": 422,
  conflict: 409,
  "provider-not-configured": 400,
  "model-call-failed": 502,
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
  if (isAppError(error)) {
    return Response.json({ error: { code: error.code, message: error.message } }, { status: statusByCode[error.code] });
  }
  if (error instanceof ZodError) {
    const message = error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; ");
    return Response.json({ error: { code: "invalid-input", message } }, { status: 400 });
  }
  if (error instanceof SyntaxError) {
    return Response.json({ error: { code: "invalid-input", message: `The request body is not valid JSON: ${error.message}` } }, { status: 400 });
  }
  if (isDatabaseUnreachable(error)) {
    // Shared mode's PostgreSQL is down or restarting: say so (the cause names host and port, never a password; no SQL, no params).
    const cause = describePgError(error);
    console.error(`[api] the database is unreachable: ${cause}`);
    return Response.json({ error: { code: "database-unreachable", message: `The database is unreachable: ${cause.replace(/ \(while: .*\)$/, "")} — check REFLEXION_DATABASE_URL and that PostgreSQL is running, then retry.` } }, { status: 503 });
  }
  // The log gets the driver's cause and the statement's kind (not the parameters); the client only that it failed.
  console.error(`Unexpected error: ${describePgError(error)}`, error instanceof Error && error.stack ? `\n${error.stack}` : "");
  return Response.json({ error: { code: "internal", message: "Unexpected server error; see the server log." } }, { status: 500 });
}

/** Wraps a route handler so every failure goes through {@link errorResponse}. */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
