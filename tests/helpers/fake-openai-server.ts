// Over 400 lines on purpose: one scriptable server with its fault and reply queues and their docs in one place, so every test scripts a provider the same way.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { contextLengthFailure } from "./fake-openai-server-context-length";

export { contextLengthFailure, type ContextLengthWording } from "./fake-openai-server-context-length";

/**
 * A small OpenAI-compatible chat server for tests and offline demos, bound to
 * 127.0.0.1 (ephemeral port by default). It implements just enough of
 * `POST /v1/chat/completions` (streaming SSE and plain JSON) and
 * `GET /v1/models` for the AI SDK's OpenAI and OpenAI-compatible providers.
 *
 * - The reply text comes from a pluggable {@link FakeResponder}.
 * - `stop` is honoured (cut at the earliest stop sequence, finish_reason "stop");
 *   `max_tokens` / `max_completion_tokens` cut at 4 chars per token (finish_reason "length").
 * - Usage is reported as ceil(chars / 4) for prompt and completion (an estimate).
 * - Every request is recorded ({@link FakeOpenAIServer.requests}) before any
 *   scripted failure is applied, so tests can count attempts and assert prompts.
 * - Faults on demand: {@link FakeOpenAIServer.failNext} (HTTP errors),
 *   {@link FakeOpenAIServer.cutNextStream} (socket destroyed mid-stream) and
 *   {@link FakeOpenAIServer.hangNext} (accepts the request and never answers, or
 *   stops after some chunks: the stalls a model server that stopped answering shows).
 * - Context-length replies: {@link contextLengthFailure} (OpenAI's, Anthropic's,
 *   vLLM's or llama.cpp's wording, for `failNext`) and
 *   {@link FakeOpenAIServer.setContextWindow} (every request whose prompt is
 *   over N tokens, by the ceil(chars / 4) estimate, gets OpenAI's 400).
 * - Replies on demand: {@link FakeOpenAIServer.replyNext} (a given text, a
 *   finish reason such as `content_filter` or `length`, UTF-8 split across
 *   network writes inside a character).
 *
 * No network access beyond the loopback socket; nothing is logged. Over ~400 lines
 * on purpose: one scriptable server, its fault and reply queues and their docs
 * in one place, so every test scripts a provider the same way.
 */

/** A chat message as received (content is usually a string; arrays of `{type:"text",text}` parts are accepted). */
export interface FakeChatMessage {
  role: string;
  content: unknown;
}

/** Produces the reply text for a request. Receives the messages and the whole parsed body. */
export type FakeResponder = (messages: FakeChatMessage[], body: Record<string, unknown>) => string;

/** One HTTP request the server received. `body` is the parsed JSON (or `null` when not JSON). */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  /** When it arrived, epoch ms. */
  receivedAt?: number;
  /** The HTTP status of a chat request answered with an error (scripted or the rate limit's 429); absent when answered. */
  status?: number;
}

/** A scripted HTTP failure. */
export interface FakeFailure {
  /** HTTP status to answer with, e.g. 429, 500, 401. */
  status: number;
  /** Error message in the OpenAI-style body. Default: a short text naming the status. */
  message?: string;
  /**
   * Sent as the `retry-after-ms` header (ms), which the AI SDK honours instead
   * of its 2 s backoff. Default 0 so retry tests stay fast; `null` sends none.
   */
  retryAfterMs?: number | null;
  /** Sent as the `retry-after` header as given: seconds ("3") or an HTTP date. */
  retryAfter?: string;
  /** The OpenAI-style `error.param` of the body (e.g. "stop" for an unsupported parameter). */
  param?: string;
  /** The body's `error.code`. Default: the status as a string. */
  code?: string;
  /** The body's `error.type`. Default "fake_error". */
  type?: string;
  /** Extra fields of the body's `error` object (llama.cpp sends `n_prompt_tokens` and `n_ctx`). */
  extra?: Record<string, unknown>;
}

/** Options of {@link startFakeOpenAIServer}. */
export interface FakeOpenAIServerOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Reply text source. Default {@link echoResponder}. */
  respond?: FakeResponder;
  /** Delay between streamed chunks, in ms. Default 0. */
  chunkDelayMs?: number;
  /** Model name reported in responses and by `GET /v1/models` when the request names none. Default "fake-model". */
  model?: string;
  /**
   * Prompt tokens to report as served from the prompt cache
   * (`usage.prompt_tokens_details.cached_tokens`, OpenAI's field), given the request's
   * prompt tokens and body. Absent: no `prompt_tokens_details` in usage (as before).
   */
  cachedTokens?: (promptTokens: number, body: Record<string, unknown>) => number;
  /** Extra model ids listed by `GET /v1/models` after the default one. */
  listedModels?: readonly string[];
  /** Fixed latency of every answered chat request before its first byte, in ms. Default 0. */
  latencyMs?: number;
  /**
   * The provider's own limit — a chat request beyond `max` in the trailing
   * `windowMs` is answered 429 with `retry-after: <retryAfterSeconds>` (no retry-after-ms); with
   * `"until-free"`, the wait until the oldest request in the window leaves it, as `retry-after-ms`
   * and `retry-after` (whole seconds, rounded up), as OpenAI answers.
   */
  rateLimit?: { max: number; windowMs: number; retryAfterSeconds: number | "until-free" };
}

/** A scripted reply ({@link FakeOpenAIServer.replyNext}). */
export interface FakeReply {
  text?: string;
  finishReason?: "stop" | "length" | "content_filter";
  splitUtf8?: boolean;
  /** Stream the text in pieces of this many characters (a server sending big chunks) instead of word by word. */
  chunkChars?: number;
  /** End the stream cleanly (`[DONE]`, connection closed normally) without the chunk that carries the finish reason. */
  omitFinish?: boolean;
  /** Send the whole text even past `max_tokens` (a server that ignores the limit). */
  ignoreMaxTokens?: boolean;
}

/** A running fake server. */
export interface FakeOpenAIServer {
  /** The port it listens on. */
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** `http://127.0.0.1:<port>/v1`: what to use as `OPENAI_COMPATIBLE_BASE_URL` / `OPENAI_BASE_URL`. */
  readonly baseUrl: string;
  /** Every request received, in order (including failed ones). */
  readonly requests: RecordedRequest[];
  /** Only the `POST /v1/chat/completions` requests, in order. */
  chatRequests(): RecordedRequest[];
  /** Replaces the reply text source. */
  setResponder(respond: FakeResponder): void;
  /**
   * The next `count` chat requests get `reply` instead of the responder's text
   * (queued after earlier scripted replies): a given `text` (default: the
   * responder's), a `finishReason` (`stop`, `length`, `content_filter`; default
   * `stop`, or `length` when `max_tokens` cut the text), and with `splitUtf8`
   * every streamed event is written in two network writes split inside a
   * multi-byte character (the client must reassemble the bytes); `chunkChars`,
   * `omitFinish` and `ignoreMaxTokens` script a misbehaving server ({@link FakeReply}).
   */
  replyNext(count: number, reply: FakeReply): void;
  /** The next `count` chat requests get `failure` instead of a reply (queued after earlier failures). */
  failNext(count: number, failure: FakeFailure): void;
  /**
   * The next streamed chat request writes `afterChunks` content chunks
   * (default 1), then destroys the socket without a finish chunk or `[DONE]`.
   */
  cutNextStream(options?: { afterChunks?: number }): void;
  /**
   * The next `count` chat requests are accepted and then left hanging: with no
   * `afterChunks`, no byte of a response is ever sent; with `afterChunks: n`,
   * the headers and `n` content chunks are sent, then nothing more. The
   * connections stay open until the client gives up or {@link close}.
   */
  hangNext(count: number, options?: { afterChunks?: number }): void;
  /**
   * From now on, a chat request whose prompt (ceil(chars / 4) of all messages)
   * plus its `max_tokens` is over `tokens` gets OpenAI's context-length 400 with
   * those numbers ({@link contextLengthFailure}`(tokens, prompt, "openai", maxTokens)`);
   * `null` turns it off (the default). Scripted `failNext` failures come first.
   */
  setContextWindow(tokens: number | null): void;
  /**
   * From now on every chat request that carries one of these body fields (`stop`, `temperature`,
   * `max_tokens`, …) gets OpenAI's 400 for an unsupported parameter naming the first one, as
   * reasoning models answer; `[]` turns it off (the default). Scripted `failNext` failures come first.
   */
  rejectParameters(names: readonly string[]): void;
  /** Forgets recorded requests and pending faults; the responder stays. */
  reset(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Text of a message's content: a string as is, text parts joined with "\n\n", anything else "". */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "",
      )
      .filter((text) => text !== "")
      .join("\n\n");
  }
  return "";
}

/** All messages' text joined with "\n\n" (the same flattening the demo model uses). */
export function flattenMessages(messages: readonly FakeChatMessage[]): string {
  return messages.map((message) => messageText(message.content)).join("\n\n");
}

/** Default responder: `Echo: <text of the last user message>`. Deterministic. */
export const echoResponder: FakeResponder = (messages) => {
  const lastUser = [...messages].reverse().find((message) => message.role === "user");
  return `Echo: ${lastUser ? messageText(lastUser.content) : ""}`;
};

/** ceil(chars / 4): the same token estimate the demo model uses. */
function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function cutAtStop(text: string, stop: unknown): string {
  const stops = typeof stop === "string" ? [stop] : Array.isArray(stop) ? stop.filter((s): s is string => typeof s === "string") : [];
  let cut = -1;
  for (const s of stops) {
    if (s === "") continue;
    const index = text.indexOf(s);
    if (index !== -1 && (cut === -1 || index < cut)) cut = index;
  }
  return cut === -1 ? text : text.slice(0, cut);
}

function wordChunks(text: string): string[] {
  return text === "" ? [] : (text.match(/\s*\S+\s*/g) ?? [text]);
}

function fixedChunks(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Fixed `created` timestamp so responses are byte-for-byte reproducible. */
const CREATED = 1_700_000_000;

/**
 * Starts a fake OpenAI-compatible server on 127.0.0.1.
 * @throws the listen error (e.g. EADDRINUSE for a taken `port`).
 */
export async function startFakeOpenAIServer(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
  const defaultModel = options.model ?? "fake-model";
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  let respond: FakeResponder = options.respond ?? echoResponder;
  const requests: RecordedRequest[] = [];
  let failures: FakeFailure[] = [];
  let cut: { afterChunks: number } | null = null;
  let hangs: Array<{ afterChunks: number | null }> = [];
  let replies: FakeReply[] = [];
  let counter = 0;
  let contextWindow: number | null = null;
  let rejected: readonly string[] = [];

  /** Answered (non-429) chat requests' times, for `options.rateLimit`. */
  const admitted: number[] = [];
  function overRateLimit(): FakeFailure | undefined {
    const limit = options.rateLimit;
    if (!limit) return undefined;
    const now = Date.now();
    while (admitted.length > 0 && (admitted[0] ?? 0) <= now - limit.windowMs) admitted.shift();
    if (admitted.length >= limit.max) {
      if (limit.retryAfterSeconds !== "until-free") return { status: 429, message: "fake server: rate limit reached", retryAfter: String(limit.retryAfterSeconds), retryAfterMs: null };
      const ms = Math.max(1, (admitted[0] ?? now) + limit.windowMs - now);
      return { status: 429, message: "fake server: rate limit reached", retryAfter: String(Math.ceil(ms / 1000)), retryAfterMs: ms };
    }
    admitted.push(now);
    return undefined;
  }

  async function handleChat(res: ServerResponse, body: Record<string, unknown>, record: RecordedRequest): Promise<void> {
    const hang = hangs.shift();
    if (hang && hang.afterChunks === null) return; // accepted; never answered
    const messagesIn = Array.isArray(body.messages) ? (body.messages as FakeChatMessage[]) : null;
    const promptTokens = messagesIn ? tokens(flattenMessages(messagesIn)) : 0;
    const completionTokens = typeof body.max_tokens === "number" ? body.max_tokens : typeof body.max_completion_tokens === "number" ? body.max_completion_tokens : 0;
    const rejectedName = rejected.find((name) => body[name] !== undefined && body[name] !== null);
    const failure =
      failures.shift() ??
      (rejectedName === undefined
        ? undefined
        : { status: 400, param: rejectedName, type: "invalid_request_error", code: "unsupported_parameter", message: `Unsupported parameter: '${rejectedName}' is not supported with this model.` }) ??
      overRateLimit() ??
      (contextWindow !== null && promptTokens + completionTokens > contextWindow ? contextLengthFailure(contextWindow, promptTokens, "openai", completionTokens) : undefined);
    if (failure) {
      record.status = failure.status;
      const headers: Record<string, string> = {};
      const retryAfterMs = failure.retryAfterMs === undefined ? (failure.retryAfter === undefined ? 0 : null) : failure.retryAfterMs;
      if (retryAfterMs !== null) headers["retry-after-ms"] = String(retryAfterMs);
      if (failure.retryAfter !== undefined) headers["retry-after"] = failure.retryAfter;
      sendJson(
        res,
        failure.status,
        {
          error: {
            message: failure.message ?? `fake server: scripted HTTP ${failure.status}`,
            type: failure.type ?? "fake_error",
            code: failure.code ?? String(failure.status),
            param: failure.param ?? null,
            ...failure.extra,
          },
        },
        headers,
      );
      return;
    }
    const messages = Array.isArray(body.messages) ? (body.messages as FakeChatMessage[]) : null;
    if (!messages) {
      sendJson(res, 400, { error: { message: "messages must be an array", type: "invalid_request_error", code: null } });
      return;
    }
    const model = typeof body.model === "string" ? body.model : defaultModel;
    if (options.latencyMs) await sleep(options.latencyMs);
    const reply = replies.shift();
    let text = reply?.text ?? cutAtStop(respond(messages, body), body.stop);
    let finishReason: string = reply?.finishReason ?? "stop";
    const maxTokens = typeof body.max_tokens === "number" ? body.max_tokens : typeof body.max_completion_tokens === "number" ? body.max_completion_tokens : undefined;
    if (maxTokens !== undefined && tokens(text) > maxTokens && !reply?.ignoreMaxTokens) {
      text = text.slice(0, maxTokens * 4);
      finishReason = "length";
    }
    const cached = options.cachedTokens?.(tokens(flattenMessages(messages)), body);
    const usage = {
      prompt_tokens: tokens(flattenMessages(messages)),
      completion_tokens: tokens(text),
      total_tokens: tokens(flattenMessages(messages)) + tokens(text),
      ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
    };
    counter += 1;
    const id = `chatcmpl-fake-${counter}`;

    if (body.stream !== true) {
      sendJson(res, 200, {
        id,
        object: "chat.completion",
        created: CREATED,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: finishReason }],
        usage,
      });
      return;
    }

    const cutNow = hang ? { afterChunks: hang.afterChunks ?? 0 } : cut;
    if (!hang) cut = null;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    // JSON.stringify keeps non-ASCII characters as they are, so an event's bytes hold multi-byte UTF-8 sequences to split.
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: CREATED, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    const write = async (data: string) => {
      if (!reply?.splitUtf8) {
        // Honour back-pressure, so a reply of megabytes is not buffered whole (and a client that stops reading stops it).
        if (!res.write(data)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off("drain", done);
              res.off("close", done);
              resolve();
            };
            res.on("drain", done);
            res.on("close", done);
          });
        }
        return;
      }
      const bytes = Buffer.from(data, "utf8");
      const inside = bytes.findIndex((byte, index) => index > 0 && (byte & 0xc0) === 0x80);
      if (inside === -1) {
        res.write(data);
        return;
      }
      res.write(bytes.subarray(0, inside));
      await sleep(5);
      res.write(bytes.subarray(inside));
    };
    const pieces = reply?.chunkChars ? fixedChunks(text, reply.chunkChars) : wordChunks(text);
    for (let i = 0; i < pieces.length; i += 1) {
      if (cutNow && i >= cutNow.afterChunks) break;
      if (res.destroyed) return; // the client closed the connection
      if (chunkDelayMs > 0) await sleep(chunkDelayMs);
      await write(chunk(i === 0 ? { role: "assistant", content: pieces[i] } : { content: pieces[i] }, null));
    }
    if (hang) return; // the chunks are out; the rest never comes
    if (cutNow) {
      // Let the written chunks reach the client, then drop the connection mid-response.
      await sleep(10);
      res.socket?.destroy();
      return;
    }
    if (!reply?.omitFinish) await write(chunk({}, finishReason, { usage }));
    res.end("data: [DONE]\n\n");
  }

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = raw === "" ? null : JSON.parse(raw);
        body = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const record: RecordedRequest = { method: req.method ?? "GET", path, headers: req.headers, body, receivedAt: Date.now() };
      requests.push(record);

      if (req.method === "POST" && path === "/v1/chat/completions") {
        if (body === null) {
          sendJson(res, 400, { error: { message: "request body must be a JSON object", type: "invalid_request_error", code: null } });
          return;
        }
        await handleChat(res, body, record);
        return;
      }
      if (req.method === "GET" && path === "/v1/models") {
        const ids = [defaultModel, ...(options.listedModels ?? []).filter((id) => id !== defaultModel)];
        sendJson(res, 200, { object: "list", data: ids.map((id) => ({ id, object: "model", created: CREATED, owned_by: "fake" })) });
        return;
      }
      sendJson(res, 404, { error: { message: `fake server: no route ${req.method} ${path}`, type: "not_found", code: null } });
    })().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: "fake_server_error", code: null } });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.method === "POST" && r.path === "/v1/chat/completions"),
    setResponder(next) {
      respond = next;
    },
    failNext(count, failure) {
      for (let i = 0; i < count; i += 1) failures.push(failure);
    },
    replyNext(count, reply) {
      for (let i = 0; i < count; i += 1) replies.push(reply);
    },
    cutNextStream(cutOptions = {}) {
      cut = { afterChunks: cutOptions.afterChunks ?? 1 };
    },
    rejectParameters(names) {
      rejected = [...names];
    },
    setContextWindow(next) {
      contextWindow = next;
    },
    hangNext(count, hangOptions = {}) {
      for (let i = 0; i < count; i += 1) hangs.push({ afterChunks: hangOptions.afterChunks ?? null });
    },
    reset() {
      requests.length = 0;
      failures = [];
      replies = [];
      hangs = [];
      cut = null;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
