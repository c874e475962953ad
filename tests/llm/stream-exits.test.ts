import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelCallError, type ModelRequest } from "@/lib/engine/ports";
import { createModelPort } from "@/lib/llm/model-port";
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_MAX_OUTPUT_TOKENS } from "@/lib/llm/output-limit";
import { streamWatchMiddleware, type StreamWatchState } from "@/lib/llm/stream-watch";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * The stream watch's timer (time-to-first-token / idle limit) is cleared on every way a stream
 * ends. A timer left armed after a connection closed mid-response kept `cli run` alive for
 * REFLEXION_MODEL_TIMEOUT_S (120 s by default) after its run had ended.
 */

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ respond: () => "one two three four five six" });
});
afterAll(() => server.close());

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "compatible:fake-model", temperature: 0, maxOutputTokens: 64 },
  messages: [{ role: "user", content: "Go." }],
  stopSequences: [],
};

const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

function watchState(): StreamWatchState {
  return { attempts: 0, timeout: null, tooLarge: null, armedTimers: 0 };
}

async function drain(stream: ReadableStream<LanguageModelV3StreamPart>): Promise<unknown> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done } = await reader.read();
      if (done) return null;
    }
  } catch (error) {
    return error;
  }
}

describe("stream watch timers", () => {
  it("a stream cut by a TCP close leaves no timer behind (the port's call, on the real provider)", async () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, REFLEXION_MODEL_TIMEOUT_S: "600" };
    const port = createModelPort({ env, maxRetries: 0 });
    await port.generate(request);
    await settle();
    const before = timeouts();
    server.cutNextStream({ afterChunks: 2 });
    const error = await port.generate(request).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).code).toBe("stream-broke-off");
    await settle();
    expect(timeouts()).toBeLessThanOrEqual(before);
  });

  it("a stream that ends cleanly without its finish chunk → stream-broke-off, on both OpenAI-protocol providers", async () => {
    for (const [modelId, env] of [
      ["compatible:fake-model", { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl }],
      ["openai:gpt-4o-mini", { OPENAI_API_KEY: "sk-test-key", OPENAI_BASE_URL: server.baseUrl }],
    ] as const) {
      server.replyNext(1, { text: "half an answer", omitFinish: true });
      const error = await createModelPort({ env, maxRetries: 0 })
        .generate({ ...request, settings: { ...request.settings, modelId } })
        .then(() => null, (e: unknown) => e);
      expect(error, modelId).toBeInstanceOf(ModelCallError);
      expect((error as ModelCallError).code, modelId).toBe("stream-broke-off");
    }
  });

  it("every way out clears the timer: error mid-stream, end without finish, cancel by the reader, output limit", async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "hello" },
    ];
    const cases: Array<{ name: string; stream: () => ReadableStream<LanguageModelV3StreamPart>; cancel?: boolean; limitBytes?: number }> = [
      {
        name: "error",
        stream: () =>
          new ReadableStream({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.error(new Error("socket closed"));
            },
          }),
      },
      { name: "no finish", stream: () => simulateReadableStream({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }) },
      { name: "cancel", stream: () => new ReadableStream({ start: (controller) => parts.forEach((part) => controller.enqueue(part)) }), cancel: true },
      { name: "too large", stream: () => simulateReadableStream({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }), limitBytes: 3 },
    ];
    for (const case_ of cases) {
      const state = watchState();
      const middleware = streamWatchMiddleware({
        timeout: { seconds: 600, setting: null },
        provider: "mock",
        url: "",
        outputLimit: { bytes: case_.limitBytes ?? DEFAULT_MAX_OUTPUT_BYTES, tokens: DEFAULT_MAX_OUTPUT_TOKENS },
        state,
        onStartFailed: () => undefined,
      });
      const model = new MockLanguageModelV3({ doStream: async () => ({ stream: case_.stream() }) });
      const result = await middleware.wrapStream!({ doGenerate: () => model.doGenerate({ prompt: [] }), doStream: () => model.doStream({ prompt: [] }), params: { prompt: [] }, model });
      if (case_.cancel) {
        const reader = result.stream.getReader();
        await reader.read();
        await reader.cancel("done");
      } else {
        expect(await drain(result.stream), case_.name).toBeInstanceOf(Error);
      }
      expect(state.armedTimers, case_.name).toBe(0);
      if (case_.limitBytes) expect(state.tooLarge?.size.bytes).toBe(5);
    }
  });
});
