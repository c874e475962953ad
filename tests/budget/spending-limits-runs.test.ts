import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { runAs } from "@/lib/actors/actor-context";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { Actor } from "@/lib/domain/actor";
import type { BranchId, RunId } from "@/lib/domain/ids";
import { foldRun } from "@/lib/domain/fold-run";
import { utcDay } from "@/lib/domain/spending-limits";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { streamOf } from "../helpers/mock-model";

/**
 * Budgets per person and per lab in real runs (lib/server/spending-limit-service.ts as the engine's
 * spending gate): a person's spent budget pauses that person's runs before their next model call —
 * and only theirs — with a message naming whose budget and how to raise it; every live call (100 input
 * + 10 output tokens from the mock) lands in the owner's ledger; raising the budget lets a resume go on.
 */

const WRONG = "Thought: I know this.\nAction: Finish[Nobody]";
const person = (userId: string): Actor => ({ kind: "person", id: userId, name: userId, userId });

let context: ServerContext | null = null;
afterEach(async () => {
  await context?.workers.stop();
  context = null;
});

function newContext(): ServerContext {
  const model = new MockLanguageModelV3({ doStream: async () => streamOf(WRONG) });
  context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => model, maxRetries: 0 }), workers: { pollMs: 10 } });
  return context;
}

async function runOf(ctx: ServerContext, owner: Actor | null): Promise<{ id: RunId; branch: BranchId }> {
  const create = () => ctx.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 2 });
  const run = owner ? await runAs(owner, create) : await create();
  await ctx.workers.untilSettled(run.rootBranchId);
  return { id: run.id, branch: run.rootBranchId };
}

async function stateOf(ctx: ServerContext, runId: string) {
  return foldRun((await ctx.service.events(runId)).events);
}

describe("budgets per person and per lab in runs", () => {
  it("pauses alice's run when her daily token budget is spent, names it, and leaves bob's run alone", async () => {
    const ctx = newContext();
    await ctx.spending.set({ scope: { kind: "person", userId: "alice" }, period: "day", tokens: 200 }, "admin");
    const alice = await runOf(ctx, person("alice"));
    const bob = await runOf(ctx, person("bob"));

    expect((await ctx.store.getRun(alice.id))?.ownerUserId).toBe("alice");
    const aliceState = await stateOf(ctx, alice.id);
    expect(aliceState.status).toBe("paused");
    expect(aliceState.pause?.reason).toBe("spending-limit");
    expect(aliceState.pause?.detail).toMatch(/^alice's daily budget is spent: 220 tokens of 200 today \(UTC\)\./);
    expect(aliceState.pause?.detail).toContain("cli budgets set --user alice --period day --tokens 440");
    // Two calls (110 tokens each) were made before the pause: the one that crossed the limit is completed and recorded.
    expect((await ctx.spending.spentBy("alice", "day")).calls).toBe(2);

    const bobState = await stateOf(ctx, bob.id);
    expect(bobState.status).toBe("ended");
    const bobCalls = (await ctx.service.events(bob.id)).events.filter((event) => event.type === "model-call-end").length;
    expect(bobCalls).toBeGreaterThan(2);
    expect(await ctx.spending.spentBy("bob", "day")).toEqual({ usd: 0, tokens: 110 * bobCalls, calls: bobCalls });
  });

  it("lets the paused run go on once an admin raises the budget, and pauses it again while it is still spent", async () => {
    const ctx = newContext();
    await ctx.spending.set({ scope: { kind: "person", userId: "alice" }, period: "day", tokens: 200 }, "admin");
    const alice = await runOf(ctx, person("alice"));
    expect((await stateOf(ctx, alice.id)).pause?.reason).toBe("spending-limit");

    await ctx.service.resume(alice.id);
    await ctx.workers.untilSettled(alice.branch);
    const stillSpent = await ctx.service.events(alice.id);
    expect(foldRun(stillSpent.events).pause?.reason).toBe("spending-limit");
    expect(stillSpent.events.filter((event) => event.type === "model-call-end")).toHaveLength(2);

    await ctx.spending.set({ scope: { kind: "person", userId: "alice" }, period: "day", tokens: 100_000 }, "admin");
    await ctx.service.resume(alice.id);
    await ctx.workers.untilSettled(alice.branch);
    expect((await stateOf(ctx, alice.id)).status).toBe("ended");
  });

  it("holds everyone by the lab's budget, runs with no owner included, and by each-person unless a person has their own", async () => {
    const ctx = newContext();
    await ctx.spending.store.addSpend("", utcDay(new Date()), { usd: 0, tokens: 5_000, calls: 3 });
    await ctx.spending.set({ scope: { kind: "lab" }, period: "month", tokens: 5_000 }, "admin");
    const unowned = await runOf(ctx, null);
    const state = await stateOf(ctx, unowned.id);
    expect(state.pause?.reason).toBe("spending-limit");
    expect(state.pause?.detail).toMatch(/^The lab's monthly budget is spent: 5,000 tokens of 5,000 this month \(UTC\)\..*cli budgets set --lab --period month --tokens 10000/);
    expect((await ctx.service.events(unowned.id)).events.some((event) => event.type === "model-call-end")).toBe(false);

    await ctx.spending.remove({ kind: "lab" }, "month");
    await ctx.spending.set({ scope: { kind: "each-person" }, period: "day", tokens: 100 }, "admin");
    await ctx.spending.set({ scope: { kind: "person", userId: "carol" }, period: "day", tokens: 100_000 }, "admin");
    const dave = await stateOf(ctx, (await runOf(ctx, person("dave"))).id);
    expect(dave.pause?.detail).toMatch(/^dave's daily budget is spent: 110 tokens of 100/);
    expect((await stateOf(ctx, (await runOf(ctx, person("carol"))).id)).status).toBe("ended");
  });
});
