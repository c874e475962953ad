import { afterAll, describe, expect, it } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryTemplateStore } from "@/lib/db/memory-templates";
import type { ModelPort } from "@/lib/engine/ports";
import { demoOptimiserBook } from "@/lib/environments/demo-optimiser-book";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { inProcessDriver } from "@/lib/server/optimiser/experiment-driver";
import { GOLD_REFLECTIONS_PER_PROPOSAL } from "@/lib/domain/optimiser/meta-prompt";

const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

/** A context on the demo model that keeps every meta-prompt it is sent (the prompts asking for a `<template>`). */
function capturing(): { context: ServerContext; metaPrompts: string[] } {
  const inner = createModelPort({ demoScriptBooks: [demoOptimiserBook, qaDemoScriptBook] });
  const metaPrompts: string[] = [];
  const model: ModelPort = {
    generate(request, options) {
      const text = request.messages.map((message) => (typeof message.content === "string" ? message.content : "")).join("\n");
      if (text.includes("Reply with the whole improved template")) metaPrompts.push(text);
      return inner.generate(request, options);
    },
  };
  const context = createServerContext({ store: new MemoryRunStore(), templates: new MemoryTemplateStore(), model, startWorkers: false });
  contexts.push(context);
  return { context, metaPrompts };
}

async function sourceExperiment(context: ServerContext): Promise<string> {
  const record = await context.experiments.start({ name: "source", environment: "qa", taskSet: "builtin", maxTrials: 1, arms: [{ label: "reflexion", strategy: "reflexion", modelId: "demo" }] }, { start: false });
  await inProcessDriver(context)(record.id);
  return record.id;
}

/** One gold reflection per task of the experiment, as a reviewer's correction would write it. */
async function goldFor(context: ServerContext, taskIds: readonly string[]): Promise<void> {
  for (const taskId of taskIds) {
    await context.memoryStores.putCorrection({
      id: `corr-${taskId}`,
      store: "gold-reflections",
      environment: "qa",
      taskId,
      text: `GOLD ${taskId}: search the entity named in the question first, then answer from its page.`,
      source: { runId: "run-x", branchId: "br-x", trial: 1 },
      correctedFrom: { queueId: "rq-1", itemId: `it-${taskId}`, reviewer: "ann", runId: "run-x", eventId: "ev-x", originalText: "I failed." },
    });
  }
}

describe("the optimiser takes a gold-reflection store as feedback", () => {
  it("shows the train tasks' gold reflections in the proposal prompt as examples of good reflections, never a held-out task's", async () => {
    const { context, metaPrompts } = capturing();
    const experimentId = await sourceExperiment(context);
    const { definition } = await context.experiments.get(experimentId);
    await goldFor(context, definition.taskIds);
    const created = await context.optimiser.create({ experimentId, role: "actor", rounds: 1, candidatesPerRound: 1, failuresPerProposal: 2, seed: 3, goldStore: "gold-reflections" });
    expect(created.request.goldStore).toBe("gold-reflections");
    const record = await context.optimiser.run(created.id, inProcessDriver(context));
    expect(record.candidates.find((candidate) => candidate.key === "1:0")?.status).toBe("evaluated");
    expect(metaPrompts).toHaveLength(1);
    const prompt = metaPrompts[0]!;
    expect(prompt).toContain("=== Examples of good reflections (written or corrected by people reviewing this agent) ===");
    const shown = [...prompt.matchAll(/^- (\S+): GOLD \1:/gmu)].map((match) => match[1]);
    expect(shown).toHaveLength(Math.min(GOLD_REFLECTIONS_PER_PROPOSAL, record.split.train.length));
    for (const taskId of shown) expect(record.split.train).toContain(taskId);
    for (const taskId of record.split.heldOut) expect(prompt).not.toContain(`GOLD ${taskId}:`);
  }, 120_000);

  it("without a gold store the prompt has no such block; an unknown store is refused before anything runs", async () => {
    const { context, metaPrompts } = capturing();
    const experimentId = await sourceExperiment(context);
    await expect(context.optimiser.create({ experimentId, role: "actor", goldStore: "gold-reflections" })).rejects.toThrow(/No memory store gold-reflections to read gold reflections from/);
    const created = await context.optimiser.create({ experimentId, role: "actor", rounds: 1, candidatesPerRound: 1, failuresPerProposal: 2, seed: 3 });
    await context.optimiser.run(created.id, inProcessDriver(context));
    expect(metaPrompts).toHaveLength(1);
    expect(metaPrompts[0]).not.toContain("Examples of good reflections");
  }, 120_000);
});
