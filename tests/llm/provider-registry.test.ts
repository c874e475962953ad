import { describe, expect, it } from "vitest";
import { modelsResponseSchema } from "@/lib/domain/api";
import { AppError, isAppError } from "@/lib/domain/errors";
import {
  configuredProviders,
  describeProviderTarget,
  displayUrl,
  listAvailableModels,
  parseModelId,
  resolveModel,
  resolveModelId,
} from "@/lib/llm/provider-registry";

const SECRET = "sk-test-SECRET";

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("parseModelId", () => {
  it("splits provider and model", () => {
    expect(parseModelId("openai:gpt-4o-mini")).toEqual({ id: "openai:gpt-4o-mini", provider: "openai", model: "gpt-4o-mini" });
    expect(parseModelId("compatible:qwen2.5:7b")).toEqual({ id: "compatible:qwen2.5:7b", provider: "compatible", model: "qwen2.5:7b" });
    expect(parseModelId("demo")).toEqual({ id: "demo", provider: "demo", model: "demo" });
  });

  it("rejects unknown providers with invalid-input", () => {
    const error = catchError(() => parseModelId("mistral:large"));
    expect(isAppError(error, "invalid-input")).toBe(true);
  });
});

describe("resolveModel", () => {
  it("resolves demo without any configuration", () => {
    const model = resolveModel("demo", { env: {} });
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider).toBe("demo");
    expect(model.modelId).toBe("demo");
  });

  it("resolves each provider from the given env", () => {
    const env = { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET, OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1234/v1" };
    const openai = resolveModel("openai:gpt-4o-mini", { env });
    expect(openai.provider).toBe("openai.chat"); // chat completions: honours stop sequences
    expect(openai.modelId).toBe("gpt-4o-mini");
    const anthropic = resolveModel("anthropic:claude-3-5-haiku-latest", { env });
    expect(anthropic.provider).toMatch(/^anthropic/);
    expect(anthropic.modelId).toBe("claude-3-5-haiku-latest");
    const compatible = resolveModel("compatible:local-model", { env });
    expect(compatible.provider).toBe("compatible.chat");
    expect(compatible.modelId).toBe("local-model");
  });

  it.each([
    ["openai:gpt-4o-mini", "OPENAI_API_KEY"],
    ["anthropic:claude-3-5-haiku-latest", "ANTHROPIC_API_KEY"],
    ["compatible:local-model", "OPENAI_COMPATIBLE_BASE_URL"],
  ])("%s without configuration → provider-not-configured naming %s", (modelId, envVar) => {
    // Other providers' keys are set, and must not leak into the message.
    const env = { OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET, OPENAI_COMPATIBLE_API_KEY: SECRET, [envVar]: "  " };
    const error = catchError(() => resolveModel(modelId, { env }));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("provider-not-configured");
    expect((error as AppError).message).toContain(envVar);
    expect((error as AppError).message).not.toContain(SECRET);
  });

  it("reads the env at call time", () => {
    const env: Record<string, string | undefined> = {};
    expect(() => resolveModel("openai:gpt-4o", { env })).toThrow(/OPENAI_API_KEY/);
    env.OPENAI_API_KEY = SECRET;
    expect(resolveModel("openai:gpt-4o", { env }).modelId).toBe("gpt-4o");
  });

  it("rejects a base URL that is not http(s) without echoing it", () => {
    const error = catchError(() => resolveModel("compatible:m", { env: { OPENAI_COMPATIBLE_BASE_URL: `ftp://${SECRET}@host` } }));
    expect(isAppError(error, "provider-not-configured")).toBe(true);
    expect((error as Error).message).toContain("OPENAI_COMPATIBLE_BASE_URL");
    expect((error as Error).message).not.toContain(SECRET);
  });

  it("resolveModelId fails fast like resolveModel and returns the parsed id", () => {
    expect(resolveModelId("demo", {})).toEqual({ id: "demo", provider: "demo", model: "demo" });
    expect(() => resolveModelId("anthropic:claude-3-5-haiku-latest", {})).toThrow(/ANTHROPIC_API_KEY/);
  });
});

describe("describeProviderTarget / displayUrl", () => {
  it("names the compatible server by its URL, without credentials", () => {
    const target = describeProviderTarget("compatible:m", {
      OPENAI_COMPATIBLE_BASE_URL: "http://user:pw@127.0.0.1:1234/v1/?token=abc",
      OPENAI_COMPATIBLE_API_KEY: SECRET,
    });
    expect(target.label).toBe("the OpenAI-compatible server at http://127.0.0.1:1234/v1");
    expect(target.apiKeyEnvVar).toBe("OPENAI_COMPATIBLE_API_KEY");
    expect(JSON.stringify(target)).not.toMatch(/pw|token|SECRET/);
  });

  it("returns null for non-http URLs", () => {
    expect(displayUrl("not a url")).toBeNull();
    expect(displayUrl("file:///etc/passwd")).toBeNull();
  });
});

describe("listAvailableModels", () => {
  it("offers only the scripted demo model when nothing is configured", () => {
    const list = listAvailableModels({});
    expect(modelsResponseSchema.parse(list)).toEqual(list);
    expect(list.models).toEqual([{ id: "demo", label: expect.stringMatching(/scripted/i), scripted: true, provider: "demo" }]);
    expect(list.defaultModelId).toBe("demo");
    expect(list.configuredProviders).toEqual([]);
  });

  it("adds models per configured provider and defaults to the first one", () => {
    const list = listAvailableModels({ ANTHROPIC_API_KEY: SECRET, OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:1234/v1" });
    expect(list.configuredProviders).toEqual(["anthropic", "compatible"]);
    expect(list.defaultModelId).toBe("anthropic:claude-3-5-haiku-latest");
    expect(list.models.map((m) => m.id)).toContain("compatible:local-model");
    expect(list.models.filter((m) => m.scripted).map((m) => m.id)).toEqual(["demo"]);
  });

  it("uses OPENAI_COMPATIBLE_MODEL for the compatible entry", () => {
    const list = listAvailableModels({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1", OPENAI_COMPATIBLE_MODEL: "qwen2.5:7b" });
    expect(list.models.map((m) => m.id)).toEqual(["demo", "compatible:qwen2.5:7b"]);
    expect(list.defaultModelId).toBe("compatible:qwen2.5:7b");
  });

  it("prefers openai for the default when several providers are configured", () => {
    const list = listAvailableModels({ OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET });
    expect(list.defaultModelId).toBe("openai:gpt-4o-mini");
    expect(configuredProviders({ OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: SECRET })).toEqual(["openai", "anthropic"]);
  });

  it("never leaks a key value or base URL credentials", () => {
    const env = {
      OPENAI_API_KEY: SECRET,
      ANTHROPIC_API_KEY: SECRET,
      OPENAI_COMPATIBLE_API_KEY: SECRET,
      OPENAI_COMPATIBLE_BASE_URL: `http://me:${SECRET}@127.0.0.1:1234/v1`,
    };
    const json = JSON.stringify(listAvailableModels(env));
    expect(json).not.toContain(SECRET);
    expect(json).not.toContain("SECRET");
    expect(json).not.toContain("127.0.0.1");
  });
});
