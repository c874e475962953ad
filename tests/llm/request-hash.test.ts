import { describe, expect, it } from "vitest";
import type { ModelRequest } from "@/lib/engine/ports";
import { costUsdOf, normalizePricedModelId, priceOf } from "@/lib/llm/pricing";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { canonicalRequestJson, computeRequestHash, requestHashOf, type RequestHashInput } from "@/lib/llm/request-hash";

const request: ModelRequest = {
  role: "actor",
  settings: { modelId: "openai:gpt-4o-mini", temperature: 0, maxOutputTokens: 256 },
  messages: [
    { role: "system", content: "sys" },
    { role: "user", content: "Question: q\nThought 1:" },
  ],
  stopSequences: ["\nObservation"],
};

/** The serialiser request hashes were computed with before `canonicalize`: recorded runs carry its hashes. */
function formerStableStringify(value: unknown): string {
  const sortKeys = (item: unknown): unknown => {
    if (item === null || typeof item !== "object") return item;
    if (Array.isArray(item)) return item.map(sortKeys);
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = sortKeys((item as Record<string, unknown>)[key]);
    return sorted;
  };
  return JSON.stringify(sortKeys(value));
}

const formerCanonical = (input: RequestHashInput) =>
  formerStableStringify({ ...input, messages: input.messages.map((message) => ({ role: message.role, content: message.content })) });

describe("canonicalRequestJson", () => {
  it("is RFC 8785 JSON of the hashed fields: sorted keys, no whitespace, seed left out when undefined, role of the request ignored", () => {
    const input: RequestHashInput = { provider: "openai", modelId: "gpt-4o-mini", temperature: 0, maxOutputTokens: 256, stopSequences: ["\nObservation"], messages: [{ role: "user", content: "q" }] };
    expect(canonicalRequestJson(input)).toBe('{"maxOutputTokens":256,"messages":[{"content":"q","role":"user"}],"modelId":"gpt-4o-mini","provider":"openai","stopSequences":["\\nObservation"],"temperature":0}');
    expect(canonicalRequestJson(input)).toBe(canonicalize({ ...input }));
  });

  it("writes the same bytes as the former serialiser for any request, lone surrogates and non-finite numbers included", () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom("a", "\n", "\"", "\\", "\u0000", "\u2028", "é", "\u{1F600}", "\ud83d", "\ude00"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })), maxLength: 12 });
    const input: fc.Arbitrary<RequestHashInput> = fc.record(
      {
        provider: fc.constantFrom("openai", "anthropic", "demo", "compatible"),
        modelId: text,
        temperature: fc.oneof(fc.double(), fc.constantFrom(0, -0, 0.1 + 0.2, 1e21, 5e-324)),
        maxOutputTokens: fc.oneof(fc.integer(), fc.constant(Number.NaN)),
        seed: fc.option(fc.integer(), { nil: undefined }),
        stopSequences: fc.array(text, { maxLength: 3 }),
        messages: fc.array(fc.record({ role: fc.constantFrom("system" as const, "user" as const, "assistant" as const), content: text }), { maxLength: 4 }),
      },
      { requiredKeys: ["provider", "modelId", "temperature", "maxOutputTokens", "stopSequences", "messages"] },
    );
    fc.assert(
      fc.property(input, (value) => {
        expect(canonicalRequestJson(value)).toBe(formerCanonical(value));
      }),
      { numRuns: 500 },
    );
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

  it("keeps the hashes recorded runs carry (computed with the former serialiser), so their cached responses still answer a replay", () => {
    expect(requestHashOf(request)).toBe("23fc587550b7fc9564c2b4610ed773a947e826ea29a41cdfb96bf403b488e439");
    const cutMidEmoji: ModelRequest = {
      role: "actor",
      settings: { modelId: "demo", temperature: 0.7, maxOutputTokens: 100, seed: 7 },
      messages: [{ role: "user", content: "Observation: caf\u00e9 \ud83d" }],
      stopSequences: [],
    };
    expect(requestHashOf(cutMidEmoji)).toBe("7bf713e2c018fea7d125e519308ebded8160bb1bc005a0713a1f28bdc6994a1f");
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
