import type { z } from "zod";
import { apiErrorSchema } from "@/lib/domain/api";

/** A failed API call: `message` is the server's error message, `code` its error code. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ApiRequestError";
    this.status = status;
    this.code = code;
  }
}

/**
 * The `retry` option of every API query (TanStack Query's `(failureCount, error) => boolean`):
 * a client error (HTTP 4xx: a bad request, a missing run, a refused action) will not get better,
 * so it is not retried; a network failure or a server error (5xx) is retried twice, i.e. at most
 * three requests in all. The AI SDK's retry helpers retry model calls inside the server and do not
 * fit this signature.
 *
 * @param failureCount how many requests of this query have failed so far (1 after the first).
 * @param error the last failure; only an {@link ApiRequestError} carries an HTTP status.
 */
export function retryUnlessClientError(failureCount: number, error: Error): boolean {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/** True when `error` is an {@link ApiRequestError} with HTTP status 404. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}

/**
 * Calls one of our JSON routes and parses the response with its zod schema
 * (lib/domain/api.ts). An error body `{ error: { code, message } }` becomes an
 * {@link ApiRequestError} carrying that message; a body that does not match
 * the schema is an error too (code `invalid-response`), never a silent cast.
 * `init.headers` adds request headers (a class's `x-class-teacher` secret, for one).
 */
export async function fetchJson<S extends z.ZodType>(
  path: string,
  schema: S,
  init?: { method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> },
): Promise<z.infer<S>> {
  let response: Response;
  try {
    const base: Record<string, string> = init?.body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" };
    response = await fetch(path, {
      method: init?.method ?? "GET",
      headers: { ...init?.headers, ...base },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
      cache: "no-store",
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiRequestError(0, "network", "Could not reach the server. Is it running?", { cause });
  }

  const text = await response.text();
  let json: unknown = undefined;
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch (cause) {
      if (!response.ok) throw new ApiRequestError(response.status, "http", `${response.status} ${response.statusText}`.trim(), { cause });
      throw new ApiRequestError(response.status, "invalid-response", `The server sent something that is not JSON (${path}).`, { cause });
    }
  }

  if (!response.ok) {
    const parsedError = apiErrorSchema.safeParse(json);
    if (parsedError.success) throw new ApiRequestError(response.status, parsedError.data.error.code, parsedError.data.error.message);
    throw new ApiRequestError(response.status, "http", `${response.status} ${response.statusText}`.trim());
  }

  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiRequestError(response.status, "invalid-response", `Unexpected response from ${path}: ${parsed.error.issues[0]?.message ?? "invalid"}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
