import { describe, expect, it } from "vitest";
import { eventDataSchemas } from "@/lib/domain/events";
import { contextWindowFor, contextWindowSettingNames } from "@/lib/domain/model-windows";
import { budgetTokens, countTokens, TOKENS_PER_MESSAGE, TOKENS_PER_PROMPT, tokenizerFor } from "@/lib/domain/tokenizer";

/**
 * Token counts per model and context windows per model. Reference counts are
 * the OpenAI cookbook's ("How to count tokens with tiktoken": "お誕生日おめでとう"
 * is 14 tokens in p50k_base, 9 in cl100k_base, 8 in o200k_base; "tiktoken is
 * great!" is 6 in cl100k_base).
 */

const JAPANESE = "お誕生日おめでとう";

describe("countTokens: the encoding per provider and model", () => {
  it.each([
    ["openai:gpt-4o-mini", "o200k_base", 8],
    ["openai:gpt-4o-2024-08-06", "o200k_base", 8],
    ["openai:gpt-4.1", "o200k_base", 8],
    ["openai:o3-mini", "o200k_base", 8],
    ["openai:gpt-5-mini", "o200k_base", 8],
    ["openai:gpt-4", "cl100k_base", 9],
    ["openai:gpt-4-turbo", "cl100k_base", 9],
    ["openai:gpt-3.5-turbo-0125", "cl100k_base", 9],
    ["openai:text-davinci-003", "p50k_base", 14],
  ])("%s counts with %s, exactly", (modelId, tokenizer, tokens) => {
    expect(countTokens(modelId, JAPANESE)).toEqual({ tokens, tokenizer, exact: true });
  });

  it("the cookbook's English example", () => {
    expect(countTokens("openai:gpt-4", "tiktoken is great!").tokens).toBe(6);
  });

  it("an OpenAI model we do not know: o200k_base, marked as an estimate", () => {
    expect(countTokens("openai:gpt-9-preview", JAPANESE)).toEqual({ tokens: 8, tokenizer: "o200k_base", exact: false });
  });

  it("Anthropic and compatible servers: the documented fallback, o200k_base + 25 % rounded up", () => {
    const text = "The Glass Orchard is a chamber opera in three acts by the composer Ilse Marrow. ".repeat(10);
    const o200k = countTokens("openai:gpt-4o", text).tokens;
    for (const modelId of ["anthropic:claude-3-5-haiku-latest", "compatible:qwen2.5", "mystery:model"]) {
      expect(countTokens(modelId, text)).toEqual({ tokens: Math.ceil(o200k * 1.25), tokenizer: "o200k_base+25%", exact: false });
    }
  });

  it("the demo model: ceil(chars / 4), what it reports as usage", () => {
    expect(countTokens("demo", "x".repeat(41))).toEqual({ tokens: 11, tokenizer: "chars/4", exact: false });
    expect(tokenizerFor("demo").exact).toBe(false);
  });

  it("chat messages: contents plus OpenAI's per-message and per-prompt overhead; empty is 0", () => {
    const messages = [
      { role: "system" as const, content: "Be brief." },
      { role: "user" as const, content: JAPANESE },
    ];
    const contents = countTokens("openai:gpt-4o", "Be brief.").tokens + 8;
    expect(countTokens("openai:gpt-4o", messages).tokens).toBe(contents + 2 * TOKENS_PER_MESSAGE + TOKENS_PER_PROMPT);
    expect(countTokens("openai:gpt-4o", []).tokens).toBe(0);
    expect(countTokens("openai:gpt-4o", "").tokens).toBe(0);
  });

  it("budgetTokens is the larger of the o200k_base count and chars / 4", () => {
    expect(budgetTokens(JAPANESE)).toBe(8); // dense script: the real count decides
    expect(budgetTokens("x".repeat(4001))).toBe(1001); // runs of one letter: chars / 4 decides
    const english = "The libretto follows a family of glassblowers through one hard winter. ".repeat(20);
    expect(budgetTokens(english)).toBe(Math.max(countTokens("openai:gpt-4o", english).tokens, Math.ceil(english.length / 4)));
    expect(budgetTokens("")).toBe(0);
  });

  it("is fast enough to count every prompt: over 1 MB/s of English", () => {
    const text = "It was first staged in 1911 at the Corn Exchange in Dunmere, on the River Sallow. ".repeat(2_500);
    countTokens("openai:gpt-4o", text.slice(0, 1000)); // warm up
    const started = performance.now();
    countTokens("openai:gpt-4o", text);
    const seconds = (performance.now() - started) / 1000;
    expect(text.length / seconds).toBeGreaterThan(1_000_000);
  });
});

describe("contextWindowFor", () => {
  it.each([
    ["openai:gpt-4o", 128_000],
    ["openai:gpt-4o-mini-2024-07-18", 128_000],
    ["openai:gpt-4.1-mini", 1_047_576],
    ["openai:gpt-5", 400_000],
    ["openai:o1-mini", 128_000],
    ["openai:o1", 200_000],
    ["openai:gpt-4", 8_192],
    ["openai:gpt-4-0613", 8_192],
    ["openai:gpt-4-32k", 32_768],
    ["openai:gpt-4-turbo-2024-04-09", 128_000],
    ["openai:gpt-3.5-turbo", 16_385],
    ["openai:text-davinci-003", 4_097],
    ["anthropic:claude-3-5-haiku-latest", 200_000],
    ["anthropic:claude-sonnet-4-5", 200_000],
  ])("%s: %i tokens from the table", (modelId, tokens) => {
    expect(contextWindowFor(modelId)).toEqual({ tokens, source: "table" });
  });

  it("models not in the table get the provider's default", () => {
    expect(contextWindowFor("compatible:qwen2.5")).toEqual({ tokens: 8_192, source: "default" });
    expect(contextWindowFor("google:gemini-1.5-pro-002")).toEqual({ tokens: 2_097_152, source: "table" });
    expect(contextWindowFor("google:gemini-2.5-flash")).toEqual({ tokens: 1_048_576, source: "table" });
    expect(contextWindowFor("ollama:llama3.1:8b")).toEqual({ tokens: 4_096, source: "default" });
    expect(contextWindowFor("ollama:llama3.1:8b", { REFLEXION_CONTEXT_WINDOW_OLLAMA: "32768" })).toEqual({ tokens: 32_768, source: "env", setting: "REFLEXION_CONTEXT_WINDOW_OLLAMA" });
    expect(contextWindowFor("openai:gpt-9")).toEqual({ tokens: 128_000, source: "default" });
    expect(contextWindowFor("demo")).toEqual({ tokens: 128_000, source: "default" });
  });

  it("REFLEXION_CONTEXT_WINDOW_<PROVIDER> sets every model of that provider; REFLEXION_CONTEXT_WINDOW the default of models not in the table", () => {
    expect(contextWindowSettingNames("compatible")).toEqual({ perProvider: "REFLEXION_CONTEXT_WINDOW_COMPATIBLE", global: "REFLEXION_CONTEXT_WINDOW" });
    const env = { REFLEXION_CONTEXT_WINDOW_COMPATIBLE: "32768", REFLEXION_CONTEXT_WINDOW: "16_000" };
    expect(contextWindowFor("compatible:qwen2.5", env)).toEqual({ tokens: 32_768, source: "env", setting: "REFLEXION_CONTEXT_WINDOW_COMPATIBLE" });
    expect(contextWindowFor("openai:gpt-9", env)).toEqual({ tokens: 16_000, source: "env", setting: "REFLEXION_CONTEXT_WINDOW" });
    expect(contextWindowFor("openai:gpt-4o", env)).toEqual({ tokens: 128_000, source: "table" });
    expect(contextWindowFor("openai:gpt-4o", { REFLEXION_CONTEXT_WINDOW_OPENAI: "64000" }).tokens).toBe(64_000);
  });

  it("a value that is not a token count gets a message naming the variable and what to write", () => {
    expect(() => contextWindowFor("compatible:m", { REFLEXION_CONTEXT_WINDOW_COMPATIBLE: "32k" })).toThrow(/REFLEXION_CONTEXT_WINDOW_COMPATIBLE must be a whole number of tokens .*e\.g\. 32768.*got "32k"/);
    expect(() => contextWindowFor("compatible:m", { REFLEXION_CONTEXT_WINDOW: "12" })).toThrow(/between 256/);
    expect(contextWindowFor("compatible:m", { REFLEXION_CONTEXT_WINDOW: "  " })).toEqual({ tokens: 8_192, source: "default" });
  });
});

describe("model-call-end.contextUse", () => {
  const recorded = {
    callId: "c1",
    role: "actor",
    trial: 1,
    step: 1,
    settings: { modelId: "openai:gpt-4o", temperature: 0, maxOutputTokens: 100 },
    requestHash: "h",
    messages: [{ role: "user", content: "Question: where?\nThought 1:" }],
    outputText: " Search[x]",
    usage: { inputTokens: 12, outputTokens: 3 },
    costUsd: null,
    latencyMs: 5,
    finishReason: "stop",
    source: "live",
  };
  it("is null in a log written before it, and kept when present", () => {
    expect(eventDataSchemas["model-call-end"].parse(recorded).contextUse).toBeNull();
    const use = { promptTokens: 12, window: 128_000, tokenizer: "o200k_base", exact: true };
    expect(eventDataSchemas["model-call-end"].parse({ ...recorded, contextUse: use }).contextUse).toEqual(use);
    expect(() => eventDataSchemas["model-call-end"].parse({ ...recorded, contextUse: { ...use, window: 0 } })).toThrow();
  });
});
