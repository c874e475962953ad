import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "@/lib/engine/ports";
import { createModelPort } from "@/lib/llm/model-port";
import { contextLengthFailure, startFakeOpenAIServer, type ContextLengthWording, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/** A provider's context-length 400 becomes one `context-length` error (not `bad-request`), whatever the wording. */

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => {
  server.reset();
  server.setContextWindow(null);
});
afterAll(() => server.close());

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "compatible:fake-model", temperature: 0, maxOutputTokens: 100 },
  messages: [{ role: "user", content: "Question: where?\nThought 1:" }],
  stopSequences: ["\nObservation"],
};
const port = () => createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl }, maxRetries: 2 });

describe("context-length errors from the provider", () => {
  it.each<[ContextLengthWording, RegExp]>([
    ["openai", /maximum context length is 4097 tokens.*window 4,097 tokens, prompt 9,812 tokens/],
    ["anthropic", /prompt is too long: 9812 tokens > 4097 maximum.*window 4,097 tokens, prompt 9,812 tokens/],
    ["vllm", /maximum context length is 4097 tokens.*window 4,097 tokens, prompt 9,556 tokens/],
    ["llamacpp", /exceeds the available context size.*window 4,097 tokens, prompt 9,812 tokens/],
  ])("%s wording: code context-length, not retried by the SDK, a message that says what to do", async (wording, detail) => {
    server.failNext(1, contextLengthFailure(4_097, 9_812, wording));
    const error = await port().generate(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "context-length", retryable: false, attempts: 1 });
    expect((error as Error).message).toMatch(/says the prompt is longer than the model's context window \(HTTP 400: /);
    expect((error as Error).message).toMatch(detail);
    expect((error as Error).message).toMatch(/Lower the memory window \(Ω\) or the max steps per trial, or pick a model with a larger context window, then resume the run\.$/);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("a context-length 400 that names max_tokens is not taken for a rejected parameter (max tokens are not dropped)", async () => {
    server.failNext(1, { status: 400, type: "invalid_request_error", message: "input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again" });
    await expect(port().generate(request)).rejects.toMatchObject({ code: "context-length" });
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("the fake server's window counts the prompt and the completion's max tokens", async () => {
    server.setContextWindow(100);
    await expect(port().generate(request)).rejects.toMatchObject({ code: "context-length", message: expect.stringMatching(/you requested 1\d\d tokens \(\d+ in the messages, 100 in the completion\)/) });
    server.setContextWindow(200);
    await expect(port().generate(request)).resolves.toMatchObject({ text: expect.stringContaining("Echo:") });
  });
});

describe("REFLEXION_CONTEXT_WINDOW settings", () => {
  it("a malformed value fails the call with a message naming the variable, before any request", async () => {
    const bad = createModelPort({ env: { OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, REFLEXION_CONTEXT_WINDOW_COMPATIBLE: "lots" }, maxRetries: 0 });
    await expect(bad.generate(request)).rejects.toMatchObject({ code: "bad-request", message: expect.stringMatching(/^REFLEXION_CONTEXT_WINDOW_COMPATIBLE must be a whole number of tokens/) });
    expect(server.chatRequests()).toHaveLength(0);
  });
});
