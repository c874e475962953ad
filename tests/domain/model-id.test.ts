import { describe, expect, it } from "vitest";
import { providerOf, modelNameOf } from "@/lib/otel/attributes";
import { limitFor, parseRateLimits } from "@/lib/llm/rate-limits/config";
import { seedPriceRows } from "@/lib/llm/pricing";
import { providerOfModel } from "@/lib/server/worker-pool";
import { describeModelId, isDemoModel, modelOptionLabel, parseModelId, splitModelId } from "@/lib/domain/model-id";

/**
 * One reading of a model id (`demo`, `provider:model`) for every caller: the strict parser,
 * the lenient split for recorded ids, the demo check and its label.
 */

describe("parseModelId and splitModelId", () => {
  it("splits at the first colon, keeping colons that belong to the provider's model name", () => {
    expect(parseModelId("compatible:hf.co/org/model:Q4_K_M")).toEqual({ id: "compatible:hf.co/org/model:Q4_K_M", provider: "compatible", model: "hf.co/org/model:Q4_K_M" });
    expect(splitModelId("compatible:hf.co/org/model:Q4_K_M")).toEqual({ provider: "compatible", model: "hf.co/org/model:Q4_K_M" });
    expect(parseModelId("  openai:gpt-4o ")).toEqual({ id: "openai:gpt-4o", provider: "openai", model: "gpt-4o" });
  });

  it("reads demo as provider demo, model demo", () => {
    expect(parseModelId("demo")).toEqual({ id: "demo", provider: "demo", model: "demo" });
    expect(splitModelId("demo")).toEqual({ provider: "demo", model: "demo" });
  });

  it("parseModelId refuses an unknown provider with what to write instead; splitModelId does not throw on a recorded id", () => {
    expect(() => parseModelId("mistral:large")).toThrow(/Use "demo" or "provider:model"/);
    expect(splitModelId("mistral:large")).toEqual({ provider: "mistral", model: "large" });
  });

  it("is the reading the worker pool, rate limits, OTel and the seed prices use", () => {
    expect(providerOfModel("compatible:a:b")).toBe("compatible");
    expect(providerOfModel(null)).toBe("unknown");
    const table = parseRateLimits(JSON.stringify({ compatible: { requestsPerMinute: 5 }, "*": { concurrent: 1 } }));
    expect(limitFor(table, "compatible:a:b")).toEqual({ requestsPerMinute: 5, windowSeconds: 60 });
    expect(limitFor(table, "openai:gpt-4o")).toEqual({ concurrent: 1, windowSeconds: 60 });
    expect([providerOf("openai:gpt-4o"), modelNameOf("openai:gpt-4o")]).toEqual(["openai", "gpt-4o"]);
    expect([providerOf("demo"), modelNameOf("demo")]).toEqual(["reflexion-demo", "demo"]);
    for (const row of seedPriceRows()) expect(parseModelId(`${row.provider}:${row.model}`).provider).toBe(row.provider);
  });
});

describe("the demo model and its label", () => {
  it("isDemoModel is true for demo only", () => {
    expect(isDemoModel("demo")).toBe(true);
    expect(isDemoModel(" demo ")).toBe(true);
    expect(isDemoModel("openai:demo")).toBe(false);
    expect(isDemoModel("compatible:demo-model")).toBe(false);
    expect(isDemoModel(null)).toBe(false);
    expect(isDemoModel(undefined)).toBe(false);
  });

  it("describes the demo model as a scripted stand-in and leaves other ids as they are", () => {
    expect(describeModelId("demo")).toBe("demo (a scripted stand-in, not an LLM)");
    expect(describeModelId("openai:gpt-4o")).toBe("openai:gpt-4o");
  });

  it("a scripted option's label says so exactly once", () => {
    expect(modelOptionLabel({ label: "Demo (scripted stand-in, offline)", scripted: true })).toBe("Demo (scripted stand-in, offline)");
    expect(modelOptionLabel({ label: "Fake", scripted: true })).toBe("Fake (scripted stand-in)");
    expect(modelOptionLabel({ label: "GPT-4o", scripted: false })).toBe("GPT-4o");
  });
});
