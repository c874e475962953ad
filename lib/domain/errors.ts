/**
 * The small, typed set of errors the app raises. Each carries a stable `code`
 * (mapped to an HTTP status in one place, `lib/server/http-errors.ts`) and an
 * optional `cause`. Failures *inside* a run are not thrown: they are events.
 */
export type AppErrorCode =
  | "not-found"
  | "invalid-input"
  | "conflict"
  | "invalid-dataset"
  | "provider-not-configured"
  | "model-call-failed"
  | "internal";

/** An expected failure with a code a caller can act on and a message a person can act on. */
export class AppError extends Error {
  readonly code: AppErrorCode;

  constructor(code: AppErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
  }
}

/** True when `error` is an {@link AppError}, optionally of one code. */
export function isAppError(error: unknown, code?: AppErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}
