import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { foldRun } from "@/lib/domain/fold-run";
import { INSIGHT_MEMORY_PREFIX, INSIGHTS_TEMPLATE, insightItemId } from "@/lib/domain/insights";
import { insightsDemoBook } from "@/lib/domain/insights-demo";
import type { ModelPort } from "@/lib/engine/ports";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { extractInsights } from "@/lib/server/insight-extraction";
import { demoMockModel } from "../helpers/mock-model";

const contexts: ServerContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.workers.stop();
});

/** A context on an in-memory store whose demo model answers the QA tasks and the extraction prompt; `calls` counts live model calls. */
function setup() {
  const inner = createModelPort({ resolveModel: () => demoMockModel([insightsDemoBook, qaDemoScriptBook]), maxRetries: 0 });
  const calls = { live: 0 };
  const counting: ModelPort = { generate: (request, options) => ((calls.live += 1), inner.generate(request, options)) };
  const context = createServerContext({ store: new MemoryRunStore(), model: counting });
  contexts.push(context);
  return { context, calls };
}

const qa = { environment: "qa", taskSet: "builtin", modelId: "demo" } as const;

async function reflexionRuns(context: ServerContext, taskIds: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const taskId of taskIds) {
    const run = await context.service.createRun({ ...qa, strategy: "reflexion", taskId, maxTrials: 3 });
    await context.workers.untilSettled(run.rootBranchId);
    ids.push(run.id);
  }
  return ids;
}

function depsOf(context: ServerContext, model: ModelPort = context.engineDeps.model) {
  return { store: context.store, experimentRunIds: (id: string) => context.experiments.runIds(id), memoryStores: context.memoryStores, model };
}

describe("ExpeL insight extraction", () => {
  it("stores the model's insights for the family with their provenance: runs, template version and model", async () => {
    const { context } = setup();
    const runIds = await reflexionRuns(context, ["qa-builtin-01", "qa-builtin-02"]);
    const [extraction] = await extractInsights(depsOf(context), { runIds, store: "insights-qa" });
    expect(extraction?.environment).toBe("qa");
    // The prompt showed the failed trials' reflections, so the demo found the bridge-entity and page-title mistakes.
    expect(extraction?.prompt).toContain("Reflection: I answered Dunmere");
    const stored = await context.memoryStores.insights("insights-qa", "qa");
    expect(stored.map((entry) => entry.text)).toEqual(extraction?.insights.map((entry) => entry.text));
    expect(stored).toHaveLength(3);
    expect(stored[0]?.text).toMatch(/bridge entity/u);
    expect(stored[1]?.text).toMatch(/exact page titles/u);
    for (const entry of stored) {
      expect(entry.provenance).toEqual({ experimentId: null, runIds, template: { id: INSIGHTS_TEMPLATE.id, version: INSIGHTS_TEMPLATE.version }, model: "demo" });
    }
    // Insights are not a task's reflections: no warm start of a task reads them.
    expect(await context.memoryStores.entries("insights-qa", "qa", "qa-builtin-01")).toEqual([]);
    // Extracting again replaces the same texts instead of adding copies.
    await extractInsights(depsOf(context), { runIds, store: "insights-qa" });
    expect(await context.memoryStores.insights("insights-qa", "qa")).toHaveLength(3);
  });

  it("refuses a reply without a list, naming what came back, and stores nothing", async () => {
    const { context } = setup();
    const runIds = await reflexionRuns(context, ["qa-builtin-01"]);
    const prose: ModelPort = {
      generate: async () => ({ text: "These trajectories show nothing general.", usage: { inputTokens: 10, outputTokens: 5 }, finishReason: "stop", latencyMs: 1, costUsd: 0 }) as Awaited<ReturnType<ModelPort["generate"]>>,
    };
    await expect(extractInsights(depsOf(context, prose), { runIds, store: "insights-qa" })).rejects.toThrow(/no numbered or bulleted list.*"These trajectories show nothing general\."/u);
    expect(await context.memoryStores.insights("insights-qa", "qa")).toEqual([]);
  });

  it("says what to do when there is nothing to learn from", async () => {
    const { context } = setup();
    await expect(extractInsights(depsOf(context), { runIds: [], store: "insights-qa" })).rejects.toThrow(/Name an experiment/u);
    await expect(extractInsights(depsOf(context), { runIds: ["no-such-run"], store: "insights-qa" })).rejects.toThrow(/No run no-such-run/u);
  });
});

describe("ExpeL runs", () => {
  it("carry the store's insights once, ahead of trial 1; a recorded replay makes no model call and does not read the store", async () => {
    const { context, calls } = setup();
    await extractInsights(depsOf(context), { runIds: await reflexionRuns(context, ["qa-builtin-01", "qa-builtin-02"]), store: "insights-qa" });
    const run = await context.service.createRun({ ...qa, strategy: "expel", taskId: "qa-builtin-08", maxTrials: 3, insights: { store: "insights-qa" } });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const carried = events.filter((event) => event.type === "insights-carried-in");
    expect(carried).toHaveLength(1);
    expect(events.findIndex((event) => event.type === "insights-carried-in")).toBeLessThan(events.findIndex((event) => event.type === "trial-start"));
    const stored = await context.memoryStores.insights("insights-qa", "qa");
    const data = carried[0]?.type === "insights-carried-in" ? carried[0].data : null;
    expect(data?.store).toBe("insights-qa");
    expect(data?.entries.map((entry) => entry.text)).toEqual(stored.map((entry) => entry.text));
    expect(data?.entries[0]?.provenance?.template.id).toBe(INSIGHTS_TEMPLATE.id);
    const state = foldRun(events);
    // Trial 1's memory (so its Actor prompt) holds every insight, marked as one.
    expect(state.trials[0]?.memory.map((item) => item.text)).toEqual(stored.map((entry) => `${INSIGHT_MEMORY_PREFIX}${entry.text}`));
    const firstPrompt = events.find((event) => event.type === "model-call-end");
    expect(JSON.stringify(firstPrompt?.data)).toContain(`${INSIGHT_MEMORY_PREFIX}${stored[0]?.text}`);

    // The store changes afterwards; a recorded replay from the run's start neither calls a model nor reads the store.
    await context.memoryStores.addInsights({ store: "insights-qa", environment: "qa", insights: ["A later insight."], provenance: { experimentId: null, runIds: [], template: { id: "x", version: 1 }, model: "demo" } });
    const reads = vi.spyOn(context.memoryStores, "insights");
    const before = calls.live;
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.workers.untilSettled(branchId);
    expect(calls.live).toBe(before);
    expect(reads).not.toHaveBeenCalled();
    const replayed = foldRun((await context.service.events(run.id, 0, branchId)).events);
    expect(replayed.trials[0]?.memory).toEqual(state.trials[0]?.memory);
    expect(replayed.outcome).toBe(state.outcome);
  });

  it("without a store: the log says how to extract insights and the run goes on as Reflexion", async () => {
    const { context } = setup();
    const run = await context.service.createRun({ ...qa, strategy: "expel", taskId: "qa-builtin-01", maxTrials: 3 });
    await context.workers.untilSettled(run.rootBranchId);
    const state = foldRun((await context.service.events(run.id)).events);
    expect(state.insightsCarriedIn?.entries).toEqual([]);
    expect(state.insightsCarriedIn?.note).toMatch(/names no insights store.*cli insights extract/u);
    expect(state.trials.map((trial) => trial.outcome)).toEqual(["failure", "success"]);
    expect(state.trials[1]?.reflection).toBeNull();
    expect(state.trials[0]?.reflection).not.toBeNull();
  });

  it("with a store that does not exist: the note names it and says how to extract insights", async () => {
    const { context } = setup();
    const run = await context.service.createRun({ ...qa, strategy: "expel", taskId: "qa-builtin-01", maxTrials: 1, insights: { store: "nope" } });
    await context.workers.untilSettled(run.rootBranchId);
    const note = foldRun((await context.service.events(run.id)).events).insightsCarriedIn?.note;
    expect(note).toMatch(/memory store 'nope' does not exist.*extract them with `cli insights extract --experiment <id> --store nope`/u);
  });

  it("a memory edit changes a carried insight like any reflection, and the next trial sees the edited text", async () => {
    const { context } = setup();
    await context.memoryStores.addInsights({ store: "ins", environment: "qa", insights: ["Original insight."], provenance: { experimentId: null, runIds: [], template: { id: "x", version: 1 }, model: "demo" } });
    const run = await context.service.createRun({ ...qa, strategy: "expel", taskId: "qa-builtin-01", maxTrials: 2, insights: { store: "ins" }, breakpoints: { afterReflection: true } });
    await context.workers.untilSettled(run.rootBranchId);
    let state = foldRun((await context.service.events(run.id)).events);
    expect(state.status).toBe("paused");
    const insight = state.memory.find((item) => item.id.startsWith("insight:"));
    expect(insight?.text).toBe(`${INSIGHT_MEMORY_PREFIX}Original insight.`);
    const edited = state.memory.map((item) => (item.id === insight?.id ? { ...item, text: `${INSIGHT_MEMORY_PREFIX}Edited insight.` } : item));
    await context.service.edit(run.id, { kind: "memory", memory: edited, baseSeq: state.lastSeq });
    await context.service.resume(run.id);
    await context.workers.untilSettled(run.rootBranchId);
    state = foldRun((await context.service.events(run.id)).events);
    const trial2 = state.trials[1]?.memory ?? [];
    expect(trial2.find((item) => item.id === insight?.id)?.text).toBe(`${INSIGHT_MEMORY_PREFIX}Edited insight.`);
    expect(insight?.id).toBe(insightItemId(insight!.id.slice("insight:".length)));
  });
});
