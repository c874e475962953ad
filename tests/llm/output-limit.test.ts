import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ModelCallError, type ModelRequest } from "@/lib/engine/ports";
import { createModelPort } from "@/lib/llm/model-port";
import { DEFAULT_MAX_OUTPUT_BYTES, outputLimitFor } from "@/lib/llm/output-limit";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * The per-call output limit (lib/llm/output-limit.ts) on the real path: the AI SDK's
 * OpenAI-compatible provider reading SSE from the fake server.
 */

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({ respond: () => "Thought 1: fine.\nAction 1: Finish[ok]" });
});
afterEach(() => server.reset());
afterAll(() => server.close());

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "compatible:fake-model", temperature: 0, maxOutputTokens: 256 },
  messages: [{ role: "user", content: "Question: what?" }],
  stopSequences: [],
};

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe("output limit", () => {
  it("reads its settings, with a message naming a bad one", () => {
    expect(outputLimitFor({})).toEqual({ bytes: DEFAULT_MAX_OUTPUT_BYTES, tokens: 65_536 });
    expect(outputLimitFor({ REFLEXION_MAX_OUTPUT_BYTES: "1000", REFLEXION_MAX_OUTPUT_TOKENS: "50" })).toEqual({ bytes: 1000, tokens: 50 });
    expect(() => outputLimitFor({ REFLEXION_MAX_OUTPUT_BYTES: "lots" })).toThrow(/REFLEXION_MAX_OUTPUT_BYTES must be a positive whole number/);
  });

  it("a 10 MB streamed reply is stopped at the limit: output-too-large with the size, the excess never read, within seconds", async () => {
    const huge = "Thought 1: " + "a".repeat(10 * 1024 * 1024);
    server.replyNext(1, { text: huge, chunkChars: 16 * 1024, ignoreMaxTokens: true });
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl };
    const deltas: string[] = [];
    const started = performance.now();
    const error = await failure(createModelPort({ env, maxRetries: 0 }).generate(request, { onDelta: (text) => deltas.push(text) }));
    const seconds = (performance.now() - started) / 1000;
    expect(error.code).toBe("output-too-large");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/more than 262,144 bytes \(REFLEXION_MAX_OUTPUT_BYTES\)/);
    expect(error.output).toMatchObject({ limitBytes: DEFAULT_MAX_OUTPUT_BYTES });
    expect(error.output!.bytes).toBeGreaterThan(DEFAULT_MAX_OUTPUT_BYTES);
    // Stopped at the first piece over the limit: nothing past it was passed on.
    expect(error.output!.bytes).toBeLessThanOrEqual(DEFAULT_MAX_OUTPUT_BYTES + 16 * 1024);
    expect(deltas.join("").length).toBeLessThanOrEqual(DEFAULT_MAX_OUTPUT_BYTES);
    expect(seconds).toBeLessThan(10);
  });

  it("the token limit counts streamed pieces: a server sending a flood of tiny pieces is stopped too", async () => {
    server.replyNext(1, { text: "x".repeat(5000), chunkChars: 1, ignoreMaxTokens: true });
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, REFLEXION_MAX_OUTPUT_TOKENS: "1000" };
    const error = await failure(createModelPort({ env, maxRetries: 0 }).generate(request));
    expect(error.code).toBe("output-too-large");
    expect(error.message).toMatch(/more than 1,000 tokens \(REFLEXION_MAX_OUTPUT_TOKENS\)/);
    expect(error.output).toMatchObject({ tokens: 1001, limitTokens: 1000 });
  });

  it("a reply sent as one enormous event is stopped on the raw response body, before the provider buffers and parses it whole", async () => {
    // With these limits the body may have 1 000 × 6 + 100 × 512 = 57 200 bytes.
    server.replyNext(1, { text: "b".repeat(400_000), chunkChars: 400_000, ignoreMaxTokens: true });
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, REFLEXION_MAX_OUTPUT_BYTES: "1000", REFLEXION_MAX_OUTPUT_TOKENS: "100" };
    const deltas: string[] = [];
    const error = await failure(createModelPort({ env, maxRetries: 0 }).generate(request, { onDelta: (text) => deltas.push(text) }));
    expect(error.code).toBe("output-too-large");
    expect(error.message).toMatch(/a response body of more than 57,200 bytes \(derived from REFLEXION_MAX_OUTPUT_BYTES and REFLEXION_MAX_OUTPUT_TOKENS\)/);
    expect(error.output!.bytes).toBeGreaterThan(57_200);
    expect(error.output!.bytes).toBeLessThan(400_000);
    expect(deltas).toEqual([]);
  });

  it("a reply within the limits is returned as before", async () => {
    const response = await createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl }, maxRetries: 0 }).generate(request);
    expect(response.text).toBe("Thought 1: fine.\nAction 1: Finish[ok]");
  });
});
