import { describe, expect, it } from "vitest";
import type { ModelRequest } from "@/lib/engine/ports";
import { costUsdOf, normalizePricedModelId, priceOf } from "@/lib/llm/pricing";
import { computeRequestHash, requestHashOf, stableStringify } from "@/lib/llm/request-hash";

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "openai:gpt-4o-mini", temperature: 0, maxOutputTokens: 256 },
  messages: [
    { role: "system", content: "sys" },
    { role: "user", content: "Question: q\nThought 1:" },
  ],
  stopSequences: ["\nObservation"],
};

describe("stableStringify", () => {
  it("sorts keys recursively and drops undefined like JSON", () => {
    expect(stableStringify({ b: 1, a: { d: [2, { z: 1, y: undefined }], c: "x" } })).toBe('{"a":{"c":"x","d":[2,{"z":1}]},"b":1}');
    expect(stableStringify({ x: 1, y: 2 })).toBe(stableStringify({ y: 2, x: 1 }));
  });

  it("rejects cycles", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => stableStringify(a)).toThrow(TypeError);
  });
});

describe("request hash", () => {
  it("is a sha256 hex digest, stable across calls and key order", () => {
    const hash = requestHashOf(request);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHashOf(structuredClone(request))).toBe(hash);
    const reordered = {
      messages: request.messages.map((m) => ({ content: m.content, role: m.role })),
      stopSequences: request.stopSequences,
      maxOutputTokens: 256,
      temperature: 0,
      modelId: "gpt-4o-mini",
      provider: "openai",
    };
    expect(computeRequestHash(reordered)).toBe(hash);
  });

  it("ignores the role but changes with anything sent to the provider", () => {
    const hash = requestHashOf(request);
    expect(requestHashOf({ ...request, role: "reflector" })).toBe(hash);
    const variants: ModelRequest[] = [
      { ...request, messages: [...request.messages, { role: "assistant", content: "x" }] },
      { ...request, messages: [request.messages[0]!, { role: "user", content: "Question: q\nThought 2:" }] },
      { ...request, stopSequences: [] },
      { ...request, settings: { ...request.settings, temperature: 0.7 } },
      { ...request, settings: { ...request.settings, maxOutputTokens: 100 } },
      { ...request, settings: { ...request.settings, modelId: "openai:gpt-4o" } },
      { ...request, settings: { ...request.settings, modelId: "compatible:gpt-4o-mini" } },
    ];
    const hashes = new Set(variants.map(requestHashOf));
    expect(hashes.size).toBe(variants.length);
    expect(hashes.has(hash)).toBe(false);
  });
});

describe("pricing", () => {
  it("prices known models per 1M tokens in USD", () => {
    expect(costUsdOf("openai:gpt-4o-mini", { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(0.75, 10);
    expect(costUsdOf("anthropic:claude-3-5-haiku-latest", { inputTokens: 1000, outputTokens: 500 })).toBeCloseTo(0.0028, 10);
  });

  it("normalises dated snapshots and aliases", () => {
    expect(normalizePricedModelId("anthropic:claude-3-5-haiku-20241022")).toBe("anthropic:claude-3-5-haiku");
    expect(normalizePricedModelId("openai:gpt-4o-mini-2024-07-18")).toBe("openai:gpt-4o-mini");
    expect(priceOf("anthropic:claude-sonnet-4-0")).toEqual({ inputUsdPerMTok: 3, outputUsdPerMTok: 15, cachedInputUsdPerMTok: 0.3 });
  });

  it("demo is free; unknown and compatible models are null", () => {
    expect(costUsdOf("demo", { inputTokens: 123, outputTokens: 45 })).toBe(0);
    expect(costUsdOf("openai:some-future-model", { inputTokens: 1, outputTokens: 1 })).toBeNull();
    expect(costUsdOf("compatible:llama3", { inputTokens: 1, outputTokens: 1 })).toBeNull();
  });
});
