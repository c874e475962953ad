/**
 * The most a model may send in one call. A provider that ignores `max_tokens`
 * (or a hostile or broken server) can stream megabytes; every later step
 * (the event log, the reader, the next prompt, its token count) would pay for
 * them. So the model port counts each reply while it streams and stops reading
 * once it passes either limit:
 *
 * - `REFLEXION_MAX_OUTPUT_BYTES` (default {@link DEFAULT_MAX_OUTPUT_BYTES}, 256 KiB):
 *   UTF-8 bytes of the streamed text, reasoning included;
 * - `REFLEXION_MAX_OUTPUT_TOKENS` (default {@link DEFAULT_MAX_OUTPUT_TOKENS}):
 *   tokens, counted while streaming as the number of streamed text and reasoning
 *   pieces (a provider sends one or a few tokens per piece, so this also bounds
 *   the per-piece work the stream does), and at the end as the provider's own
 *   output-token count when it reports one.
 *
 * Past a limit the call is aborted (the connection is closed), the excess is
 * never read or parsed, and the call fails with {@link OutputTooLargeError},
 * which the engine records as `model-call-error` code `output-too-large` (with
 * the size) and pauses the run on.
 */

/** Default of `REFLEXION_MAX_OUTPUT_BYTES`: 256 KiB, about 60 000 tokens of English, far above any Actor step or reflection. */
export const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024;
/** Default of `REFLEXION_MAX_OUTPUT_TOKENS`. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 65_536;

/** Names of the two settings. */
export const OUTPUT_LIMIT_SETTINGS = { bytes: "REFLEXION_MAX_OUTPUT_BYTES", tokens: "REFLEXION_MAX_OUTPUT_TOKENS" } as const;

/** The limits in force for a call. */
export interface OutputLimit {
  /** UTF-8 bytes of streamed text (reasoning included). */
  bytes: number;
  /** Tokens (streamed pieces while streaming; the provider's count at the end). */
  tokens: number;
}

/** What a call had received when it was stopped, and the limits (the `output` field of `model-call-error`). */
export interface OutputSize {
  /** UTF-8 bytes received, up to and including the piece that went over. */
  bytes: number;
  /** Tokens counted (pieces, or the provider's count when that was larger). */
  tokens: number;
  limitBytes: number;
  limitTokens: number;
}

function readPositiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number (got "${raw}"). Unset it for the default (${fallback}).`);
  }
  return value;
}

/**
 * Reads the limits from `env`.
 * @throws Error naming the variable when a value is not a positive whole number.
 */
export function outputLimitFor(env: Record<string, string | undefined>): OutputLimit {
  return {
    bytes: readPositiveInt(env, OUTPUT_LIMIT_SETTINGS.bytes, DEFAULT_MAX_OUTPUT_BYTES),
    tokens: readPositiveInt(env, OUTPUT_LIMIT_SETTINGS.tokens, DEFAULT_MAX_OUTPUT_TOKENS),
  };
}

/** A model's reply went past {@link OutputLimit}; the call was stopped there. */
export class OutputTooLargeError extends Error {
  readonly size: OutputSize;
  /** Set when the HTTP response body itself went past {@link responseBodyLimit} (bytes), before any text was read from it. */
  readonly responseBodyLimit: number | null;

  constructor(size: OutputSize, responseBodyLimit: number | null = null) {
    const over =
      responseBodyLimit !== null
        ? `a response body of ${size.bytes.toLocaleString("en-US")} bytes (limit ${responseBodyLimit.toLocaleString("en-US")})`
        : size.bytes > size.limitBytes
          ? `${size.bytes.toLocaleString("en-US")} bytes (limit ${size.limitBytes.toLocaleString("en-US")})`
          : `${size.tokens.toLocaleString("en-US")} tokens (limit ${size.limitTokens.toLocaleString("en-US")})`;
    super(`the reply went past ${over}`);
    this.name = "OutputTooLargeError";
    this.size = size;
    this.responseBodyLimit = responseBodyLimit;
  }
}

/**
 * The most bytes one HTTP response body of a model call may have, derived from the limit: the
 * text's bytes as JSON may escape them (up to 6 bytes a character, `\u0000`), plus up to 512 bytes
 * of SSE framing per streamed piece. The text limit is checked per piece once the provider has
 * parsed it; this one is checked on the raw bytes, so a reply sent as one enormous event (which
 * the provider would buffer and parse whole) is stopped too. 33.5 MB with the defaults.
 */
export function responseBodyLimit(limit: OutputLimit): number {
  return limit.bytes * 6 + limit.tokens * 512;
}

/**
 * A `fetch` whose response bodies error with {@link OutputTooLargeError} once they pass
 * `maxBytes` (the connection is then closed: the error cancels the body). For the providers'
 * `fetch` option. Counting is per chunk, nothing is kept.
 */
export function limitedFetch(limit: OutputLimit, base?: typeof fetch): typeof fetch {
  const maxBytes = responseBodyLimit(limit);
  return async (input, init) => {
    // The global fetch is looked up at each request (as the providers themselves do).
    const response = await (base ?? globalThis.fetch)(input, init);
    if (response.body === null) return response;
    let received = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          received += chunk.byteLength;
          if (received > maxBytes) {
            controller.error(new OutputTooLargeError({ bytes: received, tokens: 0, limitBytes: limit.bytes, limitTokens: limit.tokens }, maxBytes));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Counts one call's streamed output against a limit. Linear: each piece is
 * measured once (`Buffer.byteLength`), nothing is kept.
 */
export class OutputMeter {
  private bytes = 0;
  private pieces = 0;

  constructor(private readonly limit: OutputLimit) {}

  /** Counts a streamed piece; returns the error to stop with once the reply is over a limit, else null. */
  add(piece: string): OutputTooLargeError | null {
    this.bytes += Buffer.byteLength(piece, "utf8");
    this.pieces += 1;
    return this.check(0);
  }

  /** Checks the provider's own output-token count (reported at the end), if any. */
  reported(outputTokens: number | undefined): OutputTooLargeError | null {
    return this.check(outputTokens ?? 0);
  }

  private check(reportedTokens: number): OutputTooLargeError | null {
    const tokens = Math.max(this.pieces, reportedTokens);
    if (this.bytes <= this.limit.bytes && tokens <= this.limit.tokens) return null;
    return new OutputTooLargeError({ bytes: this.bytes, tokens, limitBytes: this.limit.bytes, limitTokens: this.limit.tokens });
  }
}

/** The first {@link OutputTooLargeError} on `error`'s cause chain, if any. */
export function findOutputTooLarge(error: unknown): OutputTooLargeError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth += 1) {
    if (current instanceof OutputTooLargeError) return current;
    const next = current as { cause?: unknown; lastError?: unknown };
    current = next.cause ?? next.lastError;
  }
  return undefined;
}
