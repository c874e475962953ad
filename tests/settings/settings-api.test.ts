import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelsResponseSchema } from "@/lib/domain/api";
import { providersResponseSchema, providerTestResultSchema } from "@/lib/domain/providers";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server";

/**
 * The settings routes (`GET /api/settings/providers`,
 * `POST /api/settings/providers/:provider/test`) and `GET /api/models` on the
 * process-wide context, with a test key set for every provider: no response body
 * ever contains a key value.
 */

// The routes share one process-wide context; point it at a private database and test keys before importing them.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rp-settings-"));
const TEST_KEYS = {
  OPENAI_API_KEY: "sk-test-XYZ-openai-5d41402abc4b2a76",
  ANTHROPIC_API_KEY: "sk-ant-test-XYZ-anthropic-7d793037a076",
  GOOGLE_GENERATIVE_AI_API_KEY: "AIza-test-XYZ-google-1f3870be274f6c49",
  OPENAI_COMPATIBLE_API_KEY: "sk-test-XYZ-compatible-9e107d9d372bb682",
};
process.env.REFLEXION_DB_PATH = path.join(dir, "settings.sqlite");
Object.assign(process.env, TEST_KEYS);
// Nothing leaves the machine: every hosted provider points at a closed local port.
process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
process.env.ANTHROPIC_BASE_URL = "http://127.0.0.1:9/v1";
process.env.GOOGLE_GENERATIVE_AI_BASE_URL = "http://127.0.0.1:9/v1beta";
process.env.OLLAMA_BASE_URL = "http://127.0.0.1:9";

let fake: FakeOpenAIServer;
let routes: {
  providers: typeof import("@/app/api/settings/providers/route");
  test: typeof import("@/app/api/settings/providers/[provider]/test/route");
  models: typeof import("@/app/api/models/route");
};
const bodies: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAIServer({ listedModels: ["fake-cheap"] });
  process.env.OPENAI_COMPATIBLE_BASE_URL = fake.baseUrl;
  routes = {
    providers: await import("@/app/api/settings/providers/route"),
    test: await import("@/app/api/settings/providers/[provider]/test/route"),
    models: await import("@/app/api/models/route"),
  };
});
afterAll(async () => {
  await fake.close();
  // Every body any test read: no key value in any of them.
  expect(bodies.length).toBeGreaterThanOrEqual(6);
  for (const body of bodies) for (const key of Object.values(TEST_KEYS)) expect(body).not.toContain(key);
});

async function read(response: Response): Promise<{ status: number; json: unknown }> {
  const text = await response.text();
  bodies.push(text);
  return { status: response.status, json: JSON.parse(text) };
}

const post = (provider: string, body: unknown) =>
  routes.test.POST(new Request(`http://test/api/settings/providers/${provider}/test`, { method: "POST", body: JSON.stringify(body) }), { params: Promise.resolve({ provider }) });

describe("settings API", () => {
  it("lists every provider from the environment, configured, with variable names but no values", async () => {
    const { status, json } = await read(await routes.providers.GET(new Request("http://test/api/settings/providers")));
    expect(status).toBe(200);
    const response = providersResponseSchema.parse(json);
    expect(response.providers.filter((p) => p.configured).map((p) => p.id)).toEqual(["openai", "anthropic", "google", "ollama", "compatible"]);
    const compatible = response.providers.find((p) => p.id === "compatible");
    expect(compatible?.models.map((m) => m.id)).toEqual(["compatible:fake-model", "compatible:fake-cheap"]);
    expect(compatible?.envVars.find((v) => v.name === "OPENAI_COMPATIBLE_API_KEY")).toEqual({ name: "OPENAI_COMPATIBLE_API_KEY", purpose: "apiKey", required: false, set: true });
    // The hosted lists could not be read (closed port): suggestions, with the reason.
    expect(response.providers.find((p) => p.id === "anthropic")?.modelsError).toMatch(/127\.0\.0\.1:9/);
  });

  it("the model picker offers the compatible server's listed models", async () => {
    const { json } = await read(await routes.models.GET());
    const models = modelsResponseSchema.parse(json);
    expect(models.models.map((m) => m.id)).toEqual(expect.arrayContaining(["demo", "openai:gpt-4o-mini", "google:gemini-2.0-flash", "compatible:fake-cheap"]));
  });

  it("Test connection against the fake compatible server reports a latency", async () => {
    const { status, json } = await read(await post("compatible", { modelId: "compatible:fake-cheap" }));
    expect(status).toBe(200);
    const result = providerTestResultSchema.parse(json);
    expect(result).toMatchObject({ ok: true, modelId: "compatible:fake-cheap", error: null });
    expect(fake.chatRequests().at(-1)?.headers.authorization).toBe(`Bearer ${TEST_KEYS.OPENAI_COMPATIBLE_API_KEY}`);
  });

  it("a provider that cannot be reached answers ok: false with the reason, never the key", async () => {
    for (const provider of ["openai", "anthropic", "google", "ollama"]) {
      const { status, json } = await read(await post(provider, {}));
      expect(status).toBe(200);
      const result = providerTestResultSchema.parse(json);
      expect(result.ok).toBe(false);
      expect(result.error).toBeTruthy();
    }
  });

  it("an unknown provider or a bad body is a 400 that says what to send", async () => {
    const unknown = await read(await post("mistral", {}));
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.json)).toMatch(/Use one of: openai, anthropic, google, ollama, compatible/);
    const bad = await read(await post("compatible", { modelId: 3 }));
    expect(bad.status).toBe(400);
  });
});
