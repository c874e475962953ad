import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { promptText, streamOf } from "../helpers/mock-model";
import { summarizeCosts } from "@/lib/domain/cost-summary";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryPriceStore } from "@/lib/db/price-store-memory";
import { SqlitePriceStore } from "@/lib/db/price-store-sqlite";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { costAt, PriceBook, seedPriceRows, type PriceRow } from "@/lib/llm/pricing";
import { createServerContext } from "@/lib/server/app-context";
import { PriceService } from "@/lib/server/price-service";

/** The QA demo script with usage that grows with the prompt (so calls differ in cost), a fifth of it cached. */
function mock(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async (call) => {
      const prompt = promptText(call);
      const text = demoReply([qaDemoScriptBook], prompt);
      const input = Math.ceil(prompt.length / 4);
      return streamOf(text, {
        inputTokens: { total: input, noCache: input - Math.floor(input / 5), cacheRead: Math.floor(input / 5), cacheWrite: undefined },
        outputTokens: { total: Math.ceil(text.length / 4), text: undefined, reasoning: undefined },
      });
    },
  });
}

const row = (over: Partial<PriceRow>): PriceRow => ({ id: "r", provider: "openai", model: "m", inputUsdPerMTok: 1, outputUsdPerMTok: 2, cachedInputUsdPerMTok: 0.1, enteredAt: "2026-01-01T00:00:00.000Z", note: "", ...over });

describe("prices", () => {
  it("cached input tokens are priced at the cached rate: (input − cached) × in + cached × cachedIn + output × out", () => {
    const price = { inputUsdPerMTok: 3, outputUsdPerMTok: 15, cachedInputUsdPerMTok: 0.3 };
    expect(costAt(price, { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 1_000 })).toBeCloseTo((2_000 * 3 + 8_000 * 0.3 + 1_000 * 15) / 1e6, 12);
    // Unknown cached rate: cached tokens cost the input rate (never less than they might).
    expect(costAt({ ...price, cachedInputUsdPerMTok: null }, { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 0 })).toBeCloseTo(0.03, 12);
  });

  it("the newest row entered at or before the call applies; exact rows win over provider:*; unknown models are null", () => {
    const book = new PriceBook([
      row({ id: "old", enteredAt: "2026-01-01T00:00:00.000Z", inputUsdPerMTok: 1 }),
      row({ id: "new", enteredAt: "2026-02-01T00:00:00.000Z", inputUsdPerMTok: 5 }),
      row({ id: "any", provider: "compatible", model: "*", inputUsdPerMTok: 0, outputUsdPerMTok: 0, cachedInputUsdPerMTok: 0 }),
    ]);
    const usage = { inputTokens: 1_000_000, outputTokens: 0 };
    expect(book.price("openai:m", usage, "2026-01-15T00:00:00.000Z")).toEqual({ costUsd: 1, price: { rowId: "old", enteredAt: "2026-01-01T00:00:00.000Z" } });
    expect(book.price("openai:m", usage, "2026-03-01T00:00:00.000Z").costUsd).toBe(5);
    expect(book.price("openai:m", usage, "2025-12-01T00:00:00.000Z")).toEqual({ costUsd: null, price: null });
    expect(book.price("compatible:anything", usage, "2026-03-01T00:00:00.000Z").price?.rowId).toBe("any");
    expect(book.price("openai:other", usage).costUsd).toBeNull();
    expect(book.price("demo", usage)).toEqual({ costUsd: 0, price: null });
  });

  it("the table is seeded once, edits append dated rows (history kept), and SQLite refuses to change a row", async () => {
    const store = new SqlitePriceStore(":memory:");
    let now = new Date("2026-05-01T00:00:00.000Z");
    const service = new PriceService(store, () => now);
    const seeded = (await service.table()).rows.length;
    expect(seeded).toBe(seedPriceRows().length);
    await service.set({ modelId: "openai:gpt-4o-mini", inputUsdPerMTok: 0.2, outputUsdPerMTok: 0.8, cachedInputUsdPerMTok: 0.1, note: "test" });
    now = new Date("2026-05-02T00:00:00.000Z");
    const table = await service.table();
    expect(table.rows).toHaveLength(seeded + 1);
    const mini = table.rows.filter((r) => r.provider === "openai" && r.model === "gpt-4o-mini");
    expect(mini).toHaveLength(2);
    expect(table.currentIds).toContain(mini.find((r) => r.note === "test")?.id);
    expect(table.currentIds).not.toContain(mini.find((r) => r.note !== "test")?.id);
    expect(() => store.execForTests("UPDATE prices SET input_usd_per_mtok = 0")).toThrow(/history/);
    expect(() => store.execForTests("DELETE FROM prices")).toThrow(/history/);
    // A second service on the same store does not seed twice.
    expect((await new PriceService(store).table()).rows).toHaveLength(seeded + 1);
    expect(await new MemoryPriceStore().listPrices()).toEqual([]);
  });
});

describe("cost totals equal the sum of call costs", () => {
  it("per role, per trial, per run and per experiment arm", async () => {
    const context = createServerContext({
      store: new MemoryRunStore(),
      env: { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" },
      model: createModelPort({ resolveModel: () => mock(), maxRetries: 0 }),
    });
    await context.prices.set({ modelId: "compatible:strong", inputUsdPerMTok: 3, outputUsdPerMTok: 15, cachedInputUsdPerMTok: 0.3 });
    await context.prices.set({ modelId: "compatible:cheap", inputUsdPerMTok: 0.1, outputUsdPerMTok: 0.4, cachedInputUsdPerMTok: 0.025 });
    const record = await context.experiments.start({
      name: "split",
      environment: "qa",
      taskSet: "builtin",
      taskIds: ["qa-builtin-01", "qa-builtin-02"],
      maxTrials: 3,
      arms: [
        { label: "strong actor, cheap reflector", strategy: "reflexion", modelId: "compatible:strong", models: { reflector: { modelId: "compatible:cheap" } } },
        { label: "all cheap", strategy: "reflexion", modelId: "compatible:cheap" },
      ],
    });
    await context.workers.whenIdle();
    const summary = await context.experiments.summary(record.id);
    const links = await context.store.experiments.listExperimentRuns(record.id);
    expect(links).toHaveLength(4);
    for (const arm of summary.arms) {
      let acting = 0;
      let reflecting = 0;
      for (const link of links.filter((l) => l.arm === arm.label)) {
        const state = foldRun((await context.service.events(link.runId)).events);
        const calls = Object.values(state.calls);
        const costs = summarizeCosts(calls);
        const sum = (role: string) => calls.filter((c) => c.role === role).reduce((n, c) => n + (c.costUsd ?? 0), 0);
        expect(costs.byKind.acting.costUsd).toBeCloseTo(sum("actor"), 12);
        expect(costs.byKind.reflecting.costUsd).toBeCloseTo(sum("reflector"), 12);
        expect(costs.total.costUsd).toBeCloseTo(state.totals.costUsd, 12);
        for (const trial of costs.byTrial) {
          expect(trial.total.costUsd).toBeCloseTo(calls.filter((c) => c.trial === trial.trial).reduce((n, c) => n + (c.costUsd ?? 0), 0), 12);
        }
        // Every live call was priced at record time with its model's row and its cached tokens.
        for (const call of calls.filter((c) => c.source === "live")) {
          expect(call.price?.rowId).toMatch(/^pr-/);
          expect(call.usage.cachedInputTokens).toBeGreaterThan(0);
        }
        acting += sum("actor");
        reflecting += sum("reflector");
      }
      expect(arm.costByRole.acting).toBeCloseTo(acting, 12);
      expect(arm.costByRole.reflecting).toBeCloseTo(reflecting, 12);
      expect(arm.costUsd).toBeCloseTo(acting + reflecting, 12);
    }
    const [split, cheap] = summary.arms;
    // The split arm's Actor is the strong (dearer) model: its acting costs more than the all-cheap arm's.
    expect(split?.costByRole.acting ?? 0).toBeGreaterThan(cheap?.costByRole.acting ?? 0);
    await context.workers.stop();
  });
});
