import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  NoOutputGeneratedError,
  RetryError,
  TypeValidationError,
} from "ai";
import { readContextLengthError } from "@/lib/domain/context-length";
import { stripUrlCredentials } from "@/lib/domain/url-credentials";
import { isAppError } from "@/lib/domain/errors";
import { ModelCallError } from "@/lib/engine/ports";
import { findModelTimeout } from "./model-timeouts";
import { findOutputTooLarge, OUTPUT_LIMIT_SETTINGS } from "./output-limit";
import { StreamEndedEarlyError } from "./stream-watch";
import type { ProviderTarget } from "./provider-registry";

/**
 * Turns whatever a provider call threw (after the AI SDK's own retries) into a
 * {@link ModelCallError} with a stable code, a retryable flag, the number of
 * attempts, and a message that tells a person what to do next. Messages are
 * scrubbed of API key values.
 */

/**
 * Codes of {@link ModelCallError}s raised by lib/llm:
 * - `rate-limited` (HTTP 429; retryable)
 * - `server-error` (HTTP 5xx; retryable)
 * - `timeout` (HTTP 408, or the call ran into REFLEXION_MODEL_TIMEOUT_S: no first token, or no output for that long; retryable)
 * - `network` (connection refused/reset, DNS; retryable)
 * - `stream-broke-off` (the response started, then the connection dropped, or the stream ended without its
 *   finish event; retryable — the engine asks again, bounded)
 * - `output-too-large` (the reply went past REFLEXION_MAX_OUTPUT_BYTES / _TOKENS, output-limit.ts; the call was
 *   stopped there and nothing of it is used; not retryable as it is)
 * - `auth` (HTTP 401/403; not retryable until the key is fixed)
 * - `context-length` (HTTP 400/413 saying the prompt is longer than the model's context window,
 *   lib/domain/context-length.ts; not retryable as it is: the engine shrinks the prompt once and retries)
 * - `bad-request` (other HTTP 4xx, e.g. unknown model; not retryable)
 * - `bad-response` (empty or malformed response; retryable)
 * - `aborted` (the caller's signal fired; retryable: resuming repeats the call)
 * - `provider-not-configured` (no key/base URL; not retryable until configured)
 * - `unknown` (anything else; not retryable)
 */
export type ModelCallErrorCode =
  | "rate-limited"
  | "server-error"
  | "timeout"
  | "network"
  | "stream-broke-off"
  | "output-too-large"
  | "auth"
  | "context-length"
  | "bad-request"
  | "bad-response"
  | "aborted"
  | "provider-not-configured"
  | "unknown";

/** What the mapper needs to know about the failed call. */
export interface ModelCallErrorContext {
  /** The app's model id, e.g. `compatible:qwen2.5`. */
  modelId: string;
  /** Where the call went (label, safe base URL, key env var). */
  target: ProviderTarget;
  /** Requests actually sent (counted by the port), if known; used when the error itself does not say. */
  attempts?: number;
  /** Strings that must never appear in a message (API key values). */
  secrets?: readonly string[];
  /**
   * What the reader does once the cause is fixed, ending the message's advice: default
   * "resume the run" (a run paused on the failure); "test the connection again" on the settings page.
   */
  retryPhrase?: string;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
]);

/** The first network error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) found on `error` or its `cause` chain. */
export function findNetworkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === "object"; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const inner of errors) {
        const found = findNetworkCode(inner);
        if (found) return found;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True for an abort (`AbortError`, `TimeoutError` DOMException or an error named so). */
export function isAbortLike(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "ResponseAborted");
}

/**
 * Removes URL credentials, secret values from `text`, plus anything shaped like an OpenAI or
 * Anthropic key (`sk-…`) as a second line of defence.
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let result = stripUrlCredentials(text);
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join("[redacted]");
  }
  return result.replace(/\bsk-[A-Za-z0-9_-]{6,}/g, "sk-[redacted]");
}

function shorten(text: string, max = 240): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

interface Classified {
  code: ModelCallErrorCode;
  retryable: boolean;
  message: string;
}

function classify(error: unknown, context: ModelCallErrorContext, attempts: number): Classified {
  const who = context.target.label;
  const Who = capitalize(who);
  const tries = attempts > 1 ? ` (${plural(attempts, "attempt")})` : "";
  const again = context.retryPhrase ?? "resume the run";

  if (isAppError(error, "provider-not-configured")) {
    return { code: "provider-not-configured", retryable: false, message: error.message };
  }
  const limit = findModelTimeout(error);
  if (limit) {
    const what =
      limit.kind === "first-token"
        ? `${Who} sent no response within ${limit.timeout.seconds} s${tries}`
        : `${Who} stopped sending output for ${limit.timeout.seconds} s in the middle of a response`;
    return {
      code: "timeout",
      retryable: true,
      message: `${what}. ${limit.settingAdvice()}: raise it for a slow model, or check that the server is answering, then ${again}.`,
    };
  }
  const tooLarge = findOutputTooLarge(error);
  if (tooLarge) {
    const { size } = tooLarge;
    const what =
      tooLarge.responseBodyLimit !== null
        ? `a response body of more than ${tooLarge.responseBodyLimit.toLocaleString("en-US")} bytes (derived from ${OUTPUT_LIMIT_SETTINGS.bytes} and ${OUTPUT_LIMIT_SETTINGS.tokens})`
        : size.bytes > size.limitBytes
        ? `more than ${size.limitBytes.toLocaleString("en-US")} bytes (${OUTPUT_LIMIT_SETTINGS.bytes})`
        : `more than ${size.limitTokens.toLocaleString("en-US")} tokens (${OUTPUT_LIMIT_SETTINGS.tokens})`;
    return {
      code: "output-too-large",
      retryable: false,
      message: `${Who} sent ${tooLarge.responseBodyLimit !== null ? "" : "a reply of "}${what}: it was stopped at ${size.bytes.toLocaleString("en-US")} bytes and nothing of it was used. Lower the run's max output tokens or pick another model, or raise ${OUTPUT_LIMIT_SETTINGS.bytes} / ${OUTPUT_LIMIT_SETTINGS.tokens} on the server, then ${again}.`,
    };
  }
  // The OpenAI-compatible provider's own word for a stream that ended without a finish reason.
  if (error instanceof StreamEndedEarlyError || (InvalidResponseDataError.isInstance(error) && /ended without a finish reason/i.test(error.message))) {
    return {
      code: "stream-broke-off",
      retryable: true,
      message: `The response from ${who} ended before it was complete (no finish event). Resume the run to make the call again.`,
    };
  }
  if (isAbortLike(error)) {
    return {
      code: "aborted",
      retryable: true,
      message: `The call to ${who} was cancelled before it finished. Resume the run to make the call again.`,
    };
  }

  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = shorten(error.message);
    if (status === undefined || (status >= 200 && status < 300)) {
      const code = findNetworkCode(error);
      if (status !== undefined) {
        // The response started fine and then failed: typically the stream was cut.
        return {
          code: "stream-broke-off",
          retryable: true,
          message: `The connection to ${who} broke off in the middle of the response${code ? ` (${code})` : ""}. Resume the run to make the call again.`,
        };
      }
      return networkFailure(context, code ?? detail, tries);
    }
    if (status === 401 || status === 403) {
      const keyHint = context.target.apiKeyEnvVar
        ? `Check ${context.target.apiKeyEnvVar} on the server (restart it after changing it), then ${again}.`
        : `Check the server's credentials, then ${again}.`;
      return {
        code: "auth",
        retryable: false,
        message: `${Who} rejected the credentials (HTTP ${status}: ${detail}). ${keyHint}`,
      };
    }
    if (status === 429) {
      return {
        code: "rate-limited",
        retryable: true,
        message: `${Who} is rate-limiting requests (HTTP 429)${tries}. Wait a minute and ${again}, or pick a model with a higher rate limit.`,
      };
    }
    if (status === 408) {
      return {
        code: "timeout",
        retryable: true,
        message: `${Who} timed out (HTTP 408)${tries}. Resume the run to try again.`,
      };
    }
    if (status >= 500) {
      return {
        code: "server-error",
        retryable: true,
        message: `${Who} returned a server error (HTTP ${status}: ${detail})${tries}. The provider may be overloaded or down; wait a moment and ${again}.`,
      };
    }
    if (status === 400 || status === 413 || status === 422) {
      const limit = readContextLengthError(`${error.message} ${error.responseBody ?? ""}`);
      if (limit) {
        const numbers = [
          limit.maxTokens !== null ? `window ${limit.maxTokens.toLocaleString("en-US")} tokens` : null,
          limit.promptTokens !== null ? `prompt ${limit.promptTokens.toLocaleString("en-US")} tokens` : null,
        ].filter((part) => part !== null);
        return {
          code: "context-length",
          retryable: false,
          message: `${Who} says the prompt is longer than the model's context window (HTTP ${status}: ${detail}${numbers.length > 0 ? `; ${numbers.join(", ")}` : ""}). Lower the memory window (Ω) or the max steps per trial, or pick a model with a larger context window, then ${again}.`,
        };
      }
    }
    const modelHint =
      status === 404
        ? `Check that the model "${context.modelId}" exists on ${who}`
        : `Check the model id "${context.modelId}" and the run's settings (temperature, max output tokens, stop sequences)`;
    return {
      code: "bad-request",
      retryable: false,
      message: `${Who} rejected the request (HTTP ${status}: ${detail}). ${modelHint}, then ${again}.`,
    };
  }

  const networkCode = findNetworkCode(error);
  if (networkCode) return networkFailure(context, networkCode, tries);

  if (
    NoOutputGeneratedError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error)
  ) {
    return {
      code: "bad-response",
      retryable: true,
      message: `${Who} sent an empty or malformed response (${shorten(error.message)}). Resume the run to try again; if it keeps happening, check the server's logs or pick another model.`,
    };
  }

  const detail = error instanceof Error ? shorten(error.message) : shorten(String(error));
  return {
    code: "unknown",
    retryable: false,
    message: `The call to ${who} failed: ${detail}. Check the server logs, then ${again}.`,
  };
}

function networkFailure(context: ModelCallErrorContext, detail: string, tries: string): Classified {
  const { target } = context;
  const again = context.retryPhrase ?? "resume the run";
  const refused = /ECONNREFUSED|ConnectionRefused/.test(detail);
  if (target.provider === "compatible") {
    const where = target.label;
    return {
      code: "network",
      retryable: true,
      message: refused
        ? `${capitalize(where)} refused the connection${tries}. Is it running? Start it and ${again}.`
        : `${capitalize(where)} could not be reached (${shorten(detail, 120)})${tries}. Check that it is running and that OPENAI_COMPATIBLE_BASE_URL is right, then ${again}.`,
    };
  }
  return {
    code: "network",
    retryable: true,
    message: `Could not reach ${target.label} (${shorten(detail, 120)})${tries}. Check the server's internet connection${target.baseUrl ? " and base URL" : ""}, then ${again}.`,
  };
}

/**
 * Maps a failure of a model call to a {@link ModelCallError}.
 *
 * `attempts` is `RetryError.errors.length` when the SDK gave up after retries,
 * else the port's own count of requests sent (`context.attempts`), and
 * never less than 1 (the `model-call-error` event requires a positive count,
 * so a call that failed before any request, e.g. `provider-not-configured`,
 * counts as 1 attempt).
 * A `RetryError` is classified by its last error. An existing
 * `ModelCallError` is returned unchanged.
 */
export function toModelCallError(error: unknown, context: ModelCallErrorContext): ModelCallError {
  if (error instanceof ModelCallError) return error;
  let attempts = Math.max(1, context.attempts ?? 1);
  let cause: unknown = error;
  if (RetryError.isInstance(error)) {
    attempts = Math.max(attempts, error.errors.length);
    cause = error.lastError;
  }
  const classified = classify(cause, context, attempts);
  const tooLarge = findOutputTooLarge(cause);
  return new ModelCallError(scrubSecrets(classified.message, context.secrets), {
    code: classified.code,
    retryable: classified.retryable,
    attempts,
    cause: error,
    ...(tooLarge ? { output: tooLarge.size } : {}),
  });
}

/**
 * True when `error` (or the last attempt of a RetryError) is an HTTP 400/413/422 whose message or
 * body says the prompt does not fit the model's context window (lib/domain/context-length.ts).
 */
export function isContextLengthError(error: unknown): boolean {
  const api = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(api)) return false;
  const status = api.statusCode;
  return (status === 400 || status === 413 || status === 422) && readContextLengthError(`${api.message} ${api.responseBody ?? ""}`) !== null;
}
