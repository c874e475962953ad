import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { APICallError, RetryError, simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { ModelCallError, type ModelRequest } from "@/lib/engine/ports";
import { scrubSecrets, toModelCallError } from "@/lib/llm/model-call-errors";
import { createModelPort } from "@/lib/llm/model-port";
import { describeProviderTarget } from "@/lib/llm/provider-registry";

const request: ModelRequest = {
  role: "reflector",
  settings: { modelId: "openai:gpt-4o-mini", temperature: 0, maxOutputTokens: 64 },
  messages: [{ role: "user", content: "Reflect." }],
  stopSequences: [],
};

const usage = {
  inputTokens: { total: 1000, noCache: 1000, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 500, text: 500, reasoning: undefined },
};

function streamOf(chunks: LanguageModelV3StreamPart[]) {
  return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
}

function portWith(model: MockLanguageModelV3, maxRetries = 0) {
  return createModelPort({ env: { OPENAI_API_KEY: "sk-test-SECRET" }, resolveModel: () => model, maxRetries });
}

async function callError(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

function apiError(statusCode: number | undefined, message = "failed", cause?: unknown) {
  return new APICallError({ message, url: "https://api.openai.com/v1/chat/completions", requestBodyValues: {}, statusCode, cause });
}

describe("model port with a mock model", () => {
  it("collects text, usage, finish reason and prices known models", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () =>
        streamOf([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Lesson: " },
          { type: "text-delta", id: "t", delta: "search first." },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "length", raw: "length" }, usage },
        ]),
    });
    const response = await portWith(model).generate(request);
    expect(response).toMatchObject({
      text: "Lesson: search first.",
      usage: { inputTokens: 1000, outputTokens: 500 },
      finishReason: "length",
      source: "live",
    });
    expect(response.costUsd).toBeCloseTo((1000 * 0.15 + 500 * 0.6) / 1e6, 12);
    expect(model.doStreamCalls[0]).toMatchObject({ temperature: 0, maxOutputTokens: 64 });
    expect(model.doStreamCalls[0]!.stopSequences).toBeUndefined();
  });

  it("usage omitted by the provider → 0 tokens and unknown cost", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () =>
        streamOf([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "ok" },
          { type: "text-end", id: "t" },
          {
            type: "finish",
            finishReason: { unified: "stop", raw: undefined },
            usage: {
              inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: undefined, text: undefined, reasoning: undefined },
            },
          },
        ]),
    });
    const response = await portWith(model).generate(request);
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(response.costUsd).toBeNull();
  });

  it("an error part in the stream → ModelCallError (bad-response for a stream without finish)", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () =>
        streamOf([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "par" },
          { type: "error", error: apiError(503, "overloaded") },
        ]),
    });
    const error = await callError(portWith(model).generate(request));
    expect(error).toMatchObject({ code: "server-error", retryable: true, attempts: 1 });
    expect(error.message).toMatch(/^OpenAI returned a server error \(HTTP 503: overloaded\)/);
  });

  it("a stream that ends without a finish part → stream-broke-off (the engine asks again, like a cut connection)", async () => {
    const model = new MockLanguageModelV3({ doStream: async () => streamOf([{ type: "text-start", id: "t" }, { type: "text-end", id: "t" }]) });
    const error = await callError(portWith(model).generate(request));
    expect(error).toMatchObject({ code: "stream-broke-off", retryable: true });
    expect(error.message).toMatch(/ended before it was complete/);
  });

  it("counts the SDK's retries as attempts", async () => {
    let calls = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        calls += 1;
        throw new APICallError({
          message: "busy",
          url: "u",
          requestBodyValues: {},
          statusCode: 429,
          responseHeaders: { "retry-after-ms": "0" },
        });
      },
    });
    const error = await callError(portWith(model, 2).generate(request));
    expect(calls).toBe(3);
    expect(error).toMatchObject({ code: "rate-limited", retryable: true, attempts: 3 });
  });

  it("provider-not-configured from the resolver becomes a non-retryable ModelCallError", async () => {
    const port = createModelPort({
      resolveModel: () => {
        throw new AppError("provider-not-configured", "set OPENAI_API_KEY");
      },
    });
    const error = await callError(port.generate(request));
    expect(error).toMatchObject({ code: "provider-not-configured", retryable: false, attempts: 1, message: "set OPENAI_API_KEY" });
  });
});

describe("toModelCallError", () => {
  const target = describeProviderTarget("openai:gpt-4o-mini", {});
  const context = { modelId: "openai:gpt-4o-mini", target, secrets: ["sk-live-123456789"] };

  it("uses RetryError.errors.length as attempts and classifies the last error", () => {
    const retry = new RetryError({ message: "x", reason: "maxRetriesExceeded", errors: [apiError(500), apiError(500), apiError(502)] });
    expect(toModelCallError(retry, context)).toMatchObject({ code: "server-error", attempts: 3, retryable: true });
  });

  it("a retry that ended on a non-retryable error takes that error's code", () => {
    const retry = new RetryError({ message: "x", reason: "errorNotRetryable", errors: [apiError(500), apiError(401)] });
    expect(toModelCallError(retry, context)).toMatchObject({ code: "auth", attempts: 2, retryable: false });
  });

  it("network errors without status → network, naming the provider", () => {
    const cause = Object.assign(new Error("getaddrinfo ENOTFOUND api.openai.com"), { code: "ENOTFOUND" });
    const error = toModelCallError(apiError(undefined, "Cannot connect to API: getaddrinfo ENOTFOUND", cause), context);
    expect(error).toMatchObject({ code: "network", retryable: true });
    expect(error.message).toMatch(/^Could not reach OpenAI/);
  });

  it("unknown errors are not retryable and keep the cause", () => {
    const original = new Error("weird");
    const error = toModelCallError(original, context);
    expect(error).toMatchObject({ code: "unknown", retryable: false, attempts: 1 });
    expect(error.cause).toBe(original);
  });

  it("scrubs secrets and key-shaped strings from messages", () => {
    const error = toModelCallError(apiError(400, "bad key sk-live-123456789 and sk-proj-abcdefgh"), context);
    expect(error.code).toBe("bad-request");
    expect(error.message).not.toContain("sk-live-123456789");
    expect(error.message).not.toContain("sk-proj-abcdefgh");
    expect(scrubSecrets("token=hunter22", ["hunter22"])).toBe("token=[redacted]");
  });

  it("returns an existing ModelCallError unchanged", () => {
    const existing = new ModelCallError("m", { code: "network", retryable: true, attempts: 2 });
    expect(toModelCallError(existing, context)).toBe(existing);
  });
});
