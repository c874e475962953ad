import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { providersResponseSchema } from "@/lib/domain/providers";
import { clearModelListCache, listProviderModels } from "@/lib/llm/providers/discovery";
import { isOpenAiChatModel, parseAnthropicModelList, parseGoogleModelList, parseOllamaTags, parseOpenAiModelList } from "@/lib/llm/providers/model-lists";
import { listModelOptions, providerStatuses } from "@/lib/llm/providers/status";
import { testProviderConnection } from "@/lib/llm/providers/test-connection";
import { parseModelId, resolveModelId } from "@/lib/llm/provider-registry";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, "../fixtures/providers", name), "utf8"));

const KEYS = {
  OPENAI_API_KEY: "sk-test-OPENAI-1b2c3d4e5f",
  ANTHROPIC_API_KEY: "sk-ant-test-ANTHROPIC-9f8e7d",
  GOOGLE_GENERATIVE_AI_API_KEY: "AIza-test-GOOGLE-55aa66bb",
  OPENAI_COMPATIBLE_API_KEY: "sk-test-COMPATIBLE-77cc88dd",
};

describe("model-list parsers (recorded responses in the providers' formats)", () => {
  it("reads OpenAI's /v1/models and keeps the chat models", () => {
    const all = parseOpenAiModelList(fixture("openai-v1-models.json")).map((m) => m.model);
    expect(all).toContain("text-embedding-3-small");
    expect(all.filter(isOpenAiChatModel)).toEqual(["gpt-4o-mini", "gpt-4o", "o3-mini"]);
  });

  it("reads a vLLM /v1/models (extra fields ignored, slash in the id kept)", () => {
    expect(parseOpenAiModelList(fixture("vllm-v1-models.json"))).toEqual([{ model: "Qwen/Qwen2.5-7B-Instruct", displayName: null }]);
  });

  it("reads Ollama's /api/tags", () => {
    expect(parseOllamaTags(fixture("ollama-api-tags.json")).map((m) => m.model)).toEqual(["llama3.2:latest", "qwen2.5:7b"]);
  });

  it("reads Anthropic's /v1/models with display names", () => {
    expect(parseAnthropicModelList(fixture("anthropic-v1-models.json"))).toEqual([
      { model: "claude-sonnet-4-20250514", displayName: "Claude Sonnet 4" },
      { model: "claude-3-5-haiku-20241022", displayName: "Claude Haiku 3.5" },
    ]);
  });

  it("reads Gemini's /v1beta/models: only generateContent models, without the models/ prefix", () => {
    expect(parseGoogleModelList(fixture("google-v1beta-models.json"))).toEqual([{ model: "gemini-2.0-flash", displayName: "Gemini 2.0 Flash" }]);
  });

  it("rejects a body that is not a model list", () => {
    expect(() => parseOpenAiModelList({ models: [] })).toThrow();
    expect(() => parseOllamaTags({ models: [{ size: 3 }] })).toThrow();
  });

  it("ollama and google model ids parse (an Ollama tag keeps its colon)", () => {
    expect(parseModelId("ollama:llama3.2:latest")).toMatchObject({ provider: "ollama", model: "llama3.2:latest" });
    expect(parseModelId("google:gemini-2.0-flash")).toMatchObject({ provider: "google", model: "gemini-2.0-flash" });
    // Ollama needs no key: its default address is used when OLLAMA_BASE_URL is unset.
    expect(resolveModelId("ollama:qwen2.5:7b", {}).provider).toBe("ollama");
    expect(() => resolveModelId("google:gemini-2.0-flash", {})).toThrow(/GOOGLE_GENERATIVE_AI_API_KEY/);
  });
});

/** A stand-in Ollama: `GET /api/tags` answers the recorded fixture; `/v1/*` is the fake OpenAI server's. */
let ollama: Server;
let ollamaUrl = "";
let fake: FakeOpenAIServer;
let hanging: Server;
let hangingUrl = "";

beforeAll(async () => {
  fake = await startFakeOpenAIServer({ listedModels: ["fake-small"] });
  ollama = createServer((req, res) => {
    if (req.url === "/api/tags") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(fixture("ollama-api-tags.json")));
      return;
    }
    res.writeHead(404).end();
  });
  hanging = createServer(() => {
    // accepts and never answers
  });
  await Promise.all([ollama, hanging].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
  ollamaUrl = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake.close();
  hanging.closeAllConnections();
  await Promise.all([ollama, hanging].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});
beforeEach(() => clearModelListCache());

describe("model lists from the providers' endpoints", () => {
  it("lists a compatible server's /v1/models and Ollama's /api/tags", async () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl, OLLAMA_BASE_URL: ollamaUrl };
    expect(await listProviderModels("compatible", env)).toEqual({
      ok: true,
      models: [
        { model: "fake-model", displayName: null },
        { model: "fake-small", displayName: null },
      ],
    });
    const tags = await listProviderModels("ollama", { OLLAMA_BASE_URL: `${ollamaUrl}/v1` });
    expect(tags.ok && tags.models.map((m) => m.model)).toEqual(["llama3.2:latest", "qwen2.5:7b"]);
  });

  it("caches a list for a minute and re-reads it when asked fresh", async () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl };
    const before = fake.requests.length;
    await listProviderModels("compatible", env);
    await listProviderModels("compatible", env);
    expect(fake.requests.length - before).toBe(1);
    await listProviderModels("compatible", env, { fresh: true });
    expect(fake.requests.length - before).toBe(2);
  });

  it("a list endpoint that never answers is given up after the time limit, with a message naming the URL", async () => {
    const started = Date.now();
    const result = await listProviderModels("compatible", { OPENAI_COMPATIBLE_BASE_URL: `${hangingUrl}/v1` }, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toEqual({ ok: false, error: `${hangingUrl}/v1/models: no answer within 0.3 s` });
  });

  it("an OpenAI key that the endpoint refuses is reported without the key", async () => {
    const result = await listProviderModels("openai", { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, OPENAI_BASE_URL: `${ollamaUrl}/v1` });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain(KEYS.OPENAI_API_KEY);
    expect(!result.ok && result.error).toMatch(/HTTP 404/);
  });
});

describe("provider statuses and the model picker", () => {
  it("say which providers are configured, from the environment, and never carry a key", async () => {
    const env = { ...KEYS, OPENAI_BASE_URL: `${hangingUrl}/v1`, OPENAI_COMPATIBLE_BASE_URL: `http://user:pw@127.0.0.1:${fake.port}/v1`, OLLAMA_BASE_URL: ollamaUrl };
    const response = providersResponseSchema.parse(await providerStatuses(env, { timeoutMs: 300 }));
    const byId = Object.fromEntries(response.providers.map((p) => [p.id, p]));
    expect(response.providers.map((p) => p.id)).toEqual(["openai", "anthropic", "google", "ollama", "compatible"]);
    expect(Object.values(byId).every((p) => p.configured)).toBe(true);
    // The compatible server's URL is shown without its credentials; its list was read.
    expect(byId.compatible?.baseUrl).toBe(`http://127.0.0.1:${fake.port}/v1`);
    expect(byId.compatible?.modelsSource).toBe("listed");
    expect(byId.ollama?.models.map((m) => m.id)).toEqual(["ollama:llama3.2:latest", "ollama:qwen2.5:7b"]);
    // OpenAI's list timed out: its suggestions are offered and the reason shown.
    expect(byId.openai?.modelsSource).toBe("curated");
    expect(byId.openai?.modelsError).toMatch(/no answer within/);
    expect(byId.openai?.envVars).toContainEqual({ name: "OPENAI_API_KEY", purpose: "apiKey", required: true, set: true });
    const json = JSON.stringify(response);
    for (const key of Object.values(KEYS)) expect(json).not.toContain(key);
    expect(json).not.toContain("pw@");
  });

  it("with nothing set, every provider says what to set", async () => {
    const response = await providerStatuses({});
    expect(response.providers.every((p) => !p.configured)).toBe(true);
    expect(response.providers.find((p) => p.id === "google")?.summary).toMatch(/GOOGLE_GENERATIVE_AI_API_KEY/);
    expect(response.providers.find((p) => p.id === "ollama")?.summary).toMatch(/OLLAMA_BASE_URL/);
    expect(response.envFileHint).toMatch(/\.env\.local/);
    expect((await listModelOptions({})).models.map((m) => m.id)).toEqual(["demo"]);
  });

  it("the picker offers the demo model, the hosted suggestions and what the servers list", async () => {
    const options = await listModelOptions({ OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl, OPENAI_COMPATIBLE_MODEL: "pinned-model", OLLAMA_BASE_URL: ollamaUrl });
    expect(options.models.map((m) => m.id)).toEqual(["demo", "ollama:llama3.2:latest", "ollama:qwen2.5:7b", "compatible:pinned-model", "compatible:fake-model", "compatible:fake-small"]);
    expect(options.models[0]?.scripted).toBe(true);
    expect(options.defaultModelId).toBe("ollama:llama3.2:latest");
    expect(options.configuredProviders).toEqual(["ollama", "compatible"]);
  });
});

describe("test connection", () => {
  it("makes one tiny call to the fake compatible server and reports its latency", async () => {
    const before = fake.chatRequests().length;
    const result = await testProviderConnection("compatible", { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl, OPENAI_COMPATIBLE_API_KEY: KEYS.OPENAI_COMPATIBLE_API_KEY });
    expect(result).toMatchObject({ provider: "compatible", modelId: "compatible:fake-model", ok: true, error: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const sent = fake.chatRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({ model: "fake-model", max_tokens: 5 });
  });

  it("reports a refused connection with what to do, never the key", async () => {
    const result = await testProviderConnection("openai", { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }, { modelId: "openai:gpt-4o-mini" });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/reach|refused/i);
    // Advice for the settings page, where there is no run to resume.
    expect(result.error).toMatch(/test the connection again\.$/);
    expect(result.error).not.toContain("resume the run");
    expect(JSON.stringify(result)).not.toContain(KEYS.OPENAI_API_KEY);
  });

  it("an Ollama that does not answer its model list says so, rather than that it lists no model", async () => {
    const result = await testProviderConnection("ollama", { OLLAMA_BASE_URL: "http://127.0.0.1:9" });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/did not answer its model list \(.+\): check that it is running and its URL, or pass a model id to test\./);
    expect(result.error).not.toContain("lists no model");
  });

  it("refuses a model id of another provider", async () => {
    const result = await testProviderConnection("compatible", { OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl }, { modelId: "openai:gpt-4o" });
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/not a compatible model id/) });
  });

  it("a server that ignores max_tokens and answers 20 MB is cut off at the test's reply limit, with a message", async () => {
    const http = await import("node:http");
    const content = "x".repeat(20 * 1024 * 1024);
    let sentBytes = 0;
    const huge = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        const body = JSON.stringify({ id: "c1", object: "chat.completion", created: 1, model: "huge", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });
        response.writeHead(200, { "content-type": "application/json" });
        // In 64 KiB writes, so a client that stops reading stops the server too.
        let at = 0;
        const write = () => {
          while (at < body.length) {
            const piece = body.slice(at, at + 65_536);
            at += piece.length;
            sentBytes += piece.length;
            if (!response.write(piece)) return void response.once("drain", write);
          }
          response.end();
        };
        response.on("close", () => (at = body.length));
        write();
      });
    });
    await new Promise<void>((resolve) => huge.listen(0, "127.0.0.1", resolve));
    const port = (huge.address() as { port: number }).port;
    try {
      const result = await testProviderConnection("compatible", { OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${port}/v1` }, { modelId: "compatible:huge" });
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^compatible:huge answered the test \(which asks for 5 tokens\) with more than 57,344 bytes and was cut off: the server ignores max_tokens/);
      expect(sentBytes).toBeLessThan(8 * 1024 * 1024);
    } finally {
      huge.closeAllConnections();
      await new Promise((resolve) => huge.close(resolve));
    }
  });

  it("an unconfigured provider says which variable to set", async () => {
    const result = await testProviderConnection("anthropic", {});
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/ANTHROPIC_API_KEY/) });
  });
});
