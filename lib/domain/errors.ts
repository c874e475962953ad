/**
 * The small, typed set of errors the app raises. Each carries a stable `code`
 * (mapped to an HTTP status in one place, `lib/server/http-errors.ts`) and an
 * optional `cause`. Failures *inside* a run are not thrown: they are events.
 */
export type AppErrorCode =
  | "not-found"
  | "invalid-input"
  | "conflict"
  /** An edit made against an older state of a run (its `baseSeq`): HTTP 409, the message names what changed since. */
  | "stale-edit"
  | "invalid-dataset"
  /** An upload, or what it decompresses to, is over a size limit (413); the message names the limit and how to raise it. */
  | "too-large"
  | "provider-not-configured"
  | "model-call-failed"
  /** No valid session or API token (sign-in on, shared mode): HTTP 401; the message says how to sign in or pass a token. */
  | "unauthenticated"
  /** Signed in, but the role (or ownership, or a cross-site request) does not allow this: HTTP 403, the message names the role needed. */
  | "forbidden"
  /** Something that ended and takes no more writes (a class past its end): HTTP 410, the message says what ended. */
  | "gone"
  /** Too many requests from one client or into one place (joins of a class): HTTP 429; the route adds Retry-After. */
  | "rate-limited"
  | "internal";

const CODES: ReadonlySet<string> = new Set<AppErrorCode>(["not-found", "invalid-input", "conflict", "stale-edit", "invalid-dataset", "too-large", "provider-not-configured", "model-call-failed", "unauthenticated", "forbidden", "gone", "rate-limited", "internal"]);

/**
 * Marks app errors across copies of this module: Next's production build can
 * bundle it into several server chunks (the routes' and the one the
 * instrumentation hook loads), each with its own `AppError` class, so
 * `instanceof` alone would miss errors thrown by another chunk's copy.
 */
const APP_ERROR = Symbol.for("reflexion-playground.app-error");

/** An expected failure with a code a caller can act on and a message a person can act on. */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly [APP_ERROR] = true;

  constructor(code: AppErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
  }
}

/** True when `error` is an {@link AppError} (from any copy of this module), optionally of one code. */
export function isAppError(error: unknown, code?: AppErrorCode): error is AppError {
  if (!(error instanceof Error)) return false;
  const branded = error instanceof AppError || (error as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
  const errorCode = (error as { code?: unknown }).code;
  return branded && typeof errorCode === "string" && CODES.has(errorCode) && (code === undefined || errorCode === code);
}
