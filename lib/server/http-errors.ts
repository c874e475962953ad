import { ZodError } from "zod";
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
 * (lib/domain/api.ts `apiErrorSchema`). The one place errors become HTTP.
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
  console.error("Unexpected error:", error);
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
