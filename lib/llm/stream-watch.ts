import { APICallError, type LanguageModelV3, type LanguageModelV3Middleware, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { ModelTimeoutError, type ModelTimeout } from "./model-timeouts";
import { OutputMeter, type OutputLimit, type OutputTooLargeError } from "./output-limit";

/**
 * The model stream as the port reads it: every request of a call (the SDK's
 * retries included) goes through {@link streamWatchMiddleware}, which
 *
 * - counts the requests actually started;
 * - enforces the time-to-first-token and idle limits (model-timeouts.ts; a
 *   first-token timeout is thrown as a retryable `APICallError`, so the SDK
 *   retries it like any transient failure);
 * - enforces the output limit (output-limit.ts) on each streamed piece before
 *   it is passed on, so the excess is never read further or parsed;
 * - turns a stream that ends without a `finish` part into a
 *   {@link StreamEndedEarlyError} (streamText would otherwise make up a finish,
 *   "other" with no usage, for a truncated response).
 *
 * - lets the event loop run every {@link YIELD_AFTER_MS} ms while parts keep coming.
 *
 * The watch timer is cleared on every way out of a stream: its end, its
 * error (a connection closed mid-response), the reader's cancel, a limit hit;
 * a timer left armed would keep a finished CLI process alive for the whole limit.
 */

/** Longest stretch, in ms, the stream's processing runs before it lets the event loop answer other work. */
export const YIELD_AFTER_MS = 8;

/** A model stream ended cleanly (no error) but without its `finish` part: the response is incomplete. */
export class StreamEndedEarlyError extends Error {
  constructor() {
    super("the response stream ended without a finish event");
    this.name = "StreamEndedEarlyError";
  }
}

/** What the port learns from the watch of its current request; an object, as the middleware's closures set it. */
export interface StreamWatchState {
  /** Requests started so far for this call. */
  attempts: number;
  /** Set when the current request ran into a time limit. */
  timeout: ModelTimeoutError | null;
  /** Set when the current request's output went past the limit. */
  tooLarge: OutputTooLargeError | null;
  /** Watch timers armed and not yet cleared (0 once every request of the call has ended, however it ended). */
  armedTimers: number;
}

/** Options of {@link streamWatchMiddleware}. */
export interface StreamWatchOptions {
  timeout: ModelTimeout;
  provider: string;
  /** The provider's base URL, for the `APICallError` a first-token timeout is thrown as. */
  url: string;
  outputLimit: OutputLimit;
  state: StreamWatchState;
  /**
   * True for providers that always send a finish reason of their own (the OpenAI protocol's
   * `finish_reason`): a `finish` part without one was made up by the SDK for a stream that ended early.
   */
  rawFinishReasonExpected?: boolean;
  /** Told when the request failed before its stream started (to announce the SDK's retry). */
  onStartFailed: (error: unknown) => void;
}

/** The middleware described above. */
export function streamWatchMiddleware(options: StreamWatchOptions): LanguageModelV3Middleware {
  const { state } = options;
  const limitMs = options.timeout.seconds * 1000;
  return {
    specificationVersion: "v3",
    wrapStream: async ({ params, model: inner }) => {
      state.attempts += 1;
      state.timeout = null;
      state.tooLarge = null;
      const watchdog = new AbortController();
      let output: ReadableStreamDefaultController<LanguageModelV3StreamPart> | null = null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let rejectStart: ((error: unknown) => void) | null = null;
      const disarm = () => {
        if (timer === undefined) return;
        clearTimeout(timer);
        timer = undefined;
        state.armedTimers -= 1;
      };
      const arm = (kind: "first-token" | "idle") => {
        disarm();
        state.armedTimers += 1;
        timer = setTimeout(() => {
          timer = undefined;
          state.armedTimers -= 1;
          const hit = new ModelTimeoutError(kind, options.timeout, options.provider);
          state.timeout = hit;
          watchdog.abort(hit);
          // Also end our side at once, in case the provider ignores the abort signal.
          rejectStart?.(hit);
          try {
            output?.error(hit);
          } catch {
            // already closed
          }
        }, limitMs);
      };
      arm("first-token");
      const signal = params.abortSignal ? AbortSignal.any([params.abortSignal, watchdog.signal]) : watchdog.signal;
      let result: Awaited<ReturnType<LanguageModelV3["doStream"]>>;
      try {
        result = await Promise.race([
          inner.doStream({ ...params, abortSignal: signal }),
          new Promise<never>((_, reject) => {
            rejectStart = reject;
          }),
        ]);
      } catch (error) {
        disarm();
        options.onStartFailed(error);
        // Read again: the timer may have set it while the request was starting.
        const hit = state.timeout as ModelTimeoutError | null;
        if (hit) throw new APICallError({ message: hit.message, url: options.url, requestBodyValues: {}, isRetryable: true, cause: hit });
        throw error;
      } finally {
        rejectStart = null;
      }

      const meter = new OutputMeter(options.outputLimit);
      const reader = result.stream.getReader();
      let finished = false;
      let first = true;
      let lastYield = performance.now();
      const checked = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          output = controller;
        },
        async pull(controller) {
          // Let the event loop run at least every YIELD_AFTER_MS: a network read can hold hundreds of
          // streamed pieces, and the provider's and the SDK's work on them runs as one chain of
          // microtasks that would otherwise keep every other request of the server waiting.
          if (performance.now() - lastYield > YIELD_AFTER_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            lastYield = performance.now();
          }
          let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
          try {
            next = await reader.read();
          } catch (error) {
            disarm();
            throw error;
          }
          if (next.done) {
            disarm();
            if (finished) controller.close();
            else controller.error(new StreamEndedEarlyError());
            return;
          }
          const part = next.value;
          if (part.type === "text-delta" || part.type === "reasoning-delta") {
            const over = meter.add(part.delta);
            if (over) {
              disarm();
              state.tooLarge = over;
              controller.error(over);
              // Close the connection: nothing more of this reply is read.
              watchdog.abort(over);
              reader.cancel(over).catch(() => undefined);
              return;
            }
          }
          // The first part that carries output ends the first-token wait; every part re-arms the idle limit.
          if (first && part.type !== "stream-start" && part.type !== "response-metadata") first = false;
          if (part.type === "finish") {
            disarm();
            // OpenAI's provider makes up a finish ("other", no raw reason) when the stream had none.
            if (options.rawFinishReasonExpected && part.finishReason.raw === undefined && part.finishReason.unified === "other") {
              controller.error(new StreamEndedEarlyError());
              reader.cancel().catch(() => undefined);
              return;
            }
            finished = true;
          } else if (!finished) {
            arm(first ? "first-token" : "idle");
          }
          controller.enqueue(part);
        },
        cancel(reason) {
          disarm();
          return reader.cancel(reason);
        },
      });
      return { ...result, stream: checked };
    },
  };
}
