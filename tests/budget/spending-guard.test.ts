import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { runAs } from "@/lib/actors/actor-context";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemorySpendingLimitStore } from "@/lib/db/spending-limit-store-memory";
import { utcDay } from "@/lib/domain/spending-limits";
import { createModelPort } from "@/lib/llm/model-port";
import { SpendingLimitService } from "@/lib/server/spending-limit-service";
import { streamOf } from "../helpers/mock-model";

/**
 * Model calls made outside runs (the judge of `reflect-traces`, the optimiser's meta-prompt, insight
 * extraction) go through the budgets too: refused for a person whose budget is spent, with whose and
 * how to raise it; counted against the person and the lab when made (100 + 10 tokens from the mock).
 */
describe("the budgets' guard on calls outside runs", () => {
  it("refuses a spent person's call, lets another person's through and counts it", async () => {
    const spending = new SpendingLimitService(new MemoryRunStore(), new MemorySpendingLimitStore());
    await spending.set({ scope: { kind: "person", userId: "u-vic" }, period: "day", tokens: 1500 }, "ada");
    await spending.store.addSpend("u-vic", utcDay(new Date()), { usd: 0, tokens: 2103, calls: 2 });
    const mock = new MockLanguageModelV3({ doStream: async () => streamOf("PASS") });
    const model = spending.guard(createModelPort({ resolveModel: () => mock, maxRetries: 0 }));
    const request = { role: "evaluator" as const, settings: { modelId: "openai:gpt-4o-mini", temperature: 0, maxOutputTokens: 16 }, messages: [{ role: "user" as const, content: "judge" }], stopSequences: [] };
    const asPerson = (userId: string) => ({ kind: "token" as const, id: `tok-${userId}`, name: userId, userId });

    await expect(runAs(asPerson("u-vic"), () => model.generate(request, { replay: "live" }))).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/^u-vic's daily budget is spent: 2,103 tokens of 1,500 today \(UTC\)\..*then try again\.$/),
    });
    expect(mock.doStreamCalls).toHaveLength(0);

    const answer = await runAs(asPerson("u-bob"), () => model.generate(request, { replay: "live" }));
    expect(answer.text).toBe("PASS");
    expect(await spending.spentBy("u-bob", "day")).toEqual({ usd: expect.any(Number), tokens: 110, calls: 1 });
    expect((await spending.store.spentSince(null, utcDay(new Date()))).calls).toBe(3);
  });
});
