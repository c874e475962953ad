import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "@/lib/engine/ports";
import { ModelCallError } from "@/lib/engine/ports";
import { createModelPort } from "@/lib/llm/model-port";
import { requestHashOf } from "@/lib/llm/request-hash";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

const SECRET = "sk-test-SECRET";

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({
    respond: (messages) => {
      const last = messages.at(-1);
      const text = typeof last?.content === "string" ? last.content : "";
      return text.endsWith("Thought 1:")
        ? " The answer is in the question.\nAction 1: Finish[Paris]\nObservation 1: done"
        : "Reflection: I should have searched first.";
    },
  });
});
afterEach(() => server.reset());
afterAll(() => server.close());

function env(extra: Record<string, string> = {}) {
  return { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, OPENAI_COMPATIBLE_API_KEY: SECRET, ...extra };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    role: "actor",
    settings: { modelId: "compatible:fake-llm", temperature: 0.3, maxOutputTokens: 200 },
    messages: [
      { role: "system", content: "You are a ReAct agent." },
      { role: "user", content: "Question: capital of France?\nThought 1:" },
    ],
    stopSequences: ["\nObservation"],
    ...overrides,
  };
}

async function expectCallError(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a ModelCallError");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe("model port against the fake OpenAI-compatible server (streamed)", () => {
  it("returns text, usage, finish reason, cost, hash and forwards deltas", async () => {
    const portDeltas: string[] = [];
    const callDeltas: string[] = [];
    const port = createModelPort({ env: env(), onDelta: (d) => portDeltas.push(d) });
    const response = await port.generate(request(), { onDelta: (d) => callDeltas.push(d) });

    expect(response.text).toBe(" The answer is in the question.\nAction 1: Finish[Paris]");
    expect(response.finishReason).toBe("stop");
    expect(response.usage.outputTokens).toBe(Math.ceil(response.text.length / 4));
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.source).toBe("live");
    expect(response.costUsd).toBeNull(); // compatible models are unpriced
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
    expect(response.requestHash).toBe(requestHashOf(request()));
    expect(callDeltas.length).toBeGreaterThan(1);
    expect(callDeltas.join("")).toBe(response.text);
    expect(portDeltas).toEqual(callDeltas);
  });

  it("sends exactly the engine's messages, temperature, token limit and stop sequences", async () => {
    const port = createModelPort({ env: env() });
    await port.generate(request());
    const [sent] = server.chatRequests();
    expect(server.chatRequests()).toHaveLength(1);
    expect(sent!.body).toMatchObject({
      model: "fake-llm",
      stream: true,
      temperature: 0.3,
      max_tokens: 200,
      stop: ["\nObservation"],
      messages: [
        { role: "system", content: "You are a ReAct agent." },
        { role: "user", content: "Question: capital of France?\nThought 1:" },
      ],
    });
    expect(sent!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("does not send an empty stop list", async () => {
    await createModelPort({ env: env() }).generate(request({ stopSequences: [] }));
    expect(server.chatRequests()[0]!.body).not.toHaveProperty("stop");
  });

  it("request hash is stable and changes when the messages change", async () => {
    const port = createModelPort({ env: env() });
    const a = await port.generate(request());
    const b = await port.generate(request());
    const c = await port.generate(request({ messages: [{ role: "user", content: "Reflect." }] }));
    expect(a.requestHash).toBe(b.requestHash);
    expect(c.requestHash).not.toBe(a.requestHash);
    expect(c.text).toBe("Reflection: I should have searched first.");
  });

  it("works through the real OpenAI provider too (OPENAI_BASE_URL → fake server), with cost", async () => {
    const port = createModelPort({ env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: server.baseUrl } });
    const response = await port.generate(request({ settings: { modelId: "openai:gpt-4o-mini", temperature: 0, maxOutputTokens: 100 } }));
    expect(response.text).toBe(" The answer is in the question.\nAction 1: Finish[Paris]");
    expect(response.costUsd).toBeCloseTo((response.usage.inputTokens * 0.15 + response.usage.outputTokens * 0.6) / 1e6, 12);
    expect(server.chatRequests()[0]!.body).toMatchObject({ model: "gpt-4o-mini", stop: ["\nObservation"] });
  });

  it("retries a 500 through the AI SDK and returns one response", async () => {
    server.failNext(1, { status: 500 });
    const response = await createModelPort({ env: env() }).generate(request());
    expect(response.text).toContain("Finish[Paris]");
    expect(server.chatRequests()).toHaveLength(2);
    expect(server.chatRequests()[0]!.body).toEqual(server.chatRequests()[1]!.body);
  });

  it("gives up after maxRetries with server-error, retryable, attempts counted", async () => {
    server.failNext(3, { status: 503 });
    const error = await expectCallError(createModelPort({ env: env(), maxRetries: 2 }).generate(request()));
    expect(error.code).toBe("server-error");
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(3);
    expect(server.chatRequests()).toHaveLength(3);
    expect(error.message).toContain(server.baseUrl);
    expect(error.message).toMatch(/resume the run/i);
  });

  it("maps 429 to rate-limited", async () => {
    server.failNext(2, { status: 429 });
    const error = await expectCallError(createModelPort({ env: env(), maxRetries: 1 }).generate(request()));
    expect(error).toMatchObject({ code: "rate-limited", retryable: true, attempts: 2 });
  });

  it("maps 401 to auth, not retryable, one attempt, no key in the message", async () => {
    server.failNext(1, { status: 401, message: `Incorrect API key provided: ${SECRET}` });
    const error = await expectCallError(createModelPort({ env: env() }).generate(request()));
    expect(error).toMatchObject({ code: "auth", retryable: false, attempts: 1 });
    expect(error.message).toContain("OPENAI_COMPATIBLE_API_KEY");
    expect(error.message).not.toContain(SECRET);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("maps 404 to bad-request naming the model", async () => {
    server.failNext(1, { status: 404, message: "model not found" });
    const error = await expectCallError(createModelPort({ env: env() }).generate(request()));
    expect(error).toMatchObject({ code: "bad-request", retryable: false });
    expect(error.message).toContain("compatible:fake-llm");
  });

  it("a stream cut mid-way → stream-broke-off, retryable", async () => {
    server.cutNextStream({ afterChunks: 2 });
    const deltas: string[] = [];
    const error = await expectCallError(createModelPort({ env: env() }).generate(request(), { onDelta: (d) => deltas.push(d) }));
    expect(error).toMatchObject({ code: "stream-broke-off", retryable: true });
    expect(error.message).toMatch(/broke off/);
    expect(deltas.join("")).toBe(" The answer ");
  });

  it("an abort signal → aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await expectCallError(createModelPort({ env: env() }).generate(request(), { signal: controller.signal }));
    expect(error).toMatchObject({ code: "aborted", retryable: true });
  });

  it("aborting mid-stream → aborted", async () => {
    const slow = await startFakeOpenAIServer({ chunkDelayMs: 30, respond: () => "one two three four five six seven eight nine ten" });
    try {
      const controller = new AbortController();
      const port = createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: slow.baseUrl } });
      const error = await expectCallError(
        port.generate(request({ stopSequences: [] }), { signal: controller.signal, onDelta: () => controller.abort() }),
      );
      expect(error.code).toBe("aborted");
    } finally {
      await slow.close();
    }
  });

  it("rethrows an onDelta listener's error unchanged", async () => {
    const boom = new Error("listener failed");
    await expect(
      createModelPort({ env: env() }).generate(request(), {
        onDelta: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
  });

  it("unconfigured provider → provider-not-configured ModelCallError naming the variable", async () => {
    const error = await expectCallError(createModelPort({ env: { OPENAI_API_KEY: SECRET } }).generate(request()));
    expect(error).toMatchObject({ code: "provider-not-configured", retryable: false });
    expect(error.message).toContain("OPENAI_COMPATIBLE_BASE_URL");
    expect(error.message).not.toContain(SECRET);
  });
});

describe("model port when the server is down", () => {
  it("→ network, retryable, message names the base URL, attempts counted", async () => {
    const gone = await startFakeOpenAIServer();
    const baseUrl = gone.baseUrl;
    await gone.close();
    // maxRetries 1: the SDK waits 2 s before its retry when no retry-after header is available.
    const port = createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: baseUrl, OPENAI_COMPATIBLE_API_KEY: SECRET }, maxRetries: 1 });
    const error = await expectCallError(port.generate(request()));
    expect(error.code).toBe("network");
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(2);
    expect(error.message).toBe(
      `The OpenAI-compatible server at ${baseUrl} refused the connection (2 attempts). Is it running? Start it and resume the run.`,
    );
    expect(error.message).not.toContain(SECRET);
  });
});

describe("model port with the demo model", () => {
  it("runs the demo through the same path, costs 0", async () => {
    const deltas: string[] = [];
    const port = createModelPort({
      env: {},
      demoScriptBooks: [{ respond: (p) => (p.includes("capital of France") ? " Easy.\nAction 1: Finish[Paris]\nObservation 1: ok" : null) }],
    });
    const response = await port.generate(request({ settings: { modelId: "demo", temperature: 0, maxOutputTokens: 256 } }), {
      onDelta: (d) => deltas.push(d),
    });
    expect(response.text).toBe(" Easy.\nAction 1: Finish[Paris]");
    expect(deltas.join("")).toBe(response.text);
    expect(response.costUsd).toBe(0);
    expect(response.finishReason).toBe("stop");
    expect(response.usage.inputTokens).toBeGreaterThan(0);
  });
});
