import type { LanguageModelV3CallOptions, LanguageModelV3FinishReason, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { draft, type RunEvent, type RunEventOf } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { driveRun } from "@/lib/engine/run-engine";
import { builtinQaTasks, qaDemoScriptBook, qaEnvironment } from "@/lib/environments/qa";
import { createCachingModelPort } from "@/lib/llm/caching-model-port";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { buildRunConfig } from "@/lib/server/run-config-factory";
import { environmentEntry } from "@/lib/environments/registry";
import { promptText } from "../helpers/mock-model";

/** What the mock answers to one call: the demo model's text, or a scripted text and finish reason. */
type Reply = "demo" | { text: string; finish?: LanguageModelV3FinishReason["unified"] };

/** The Self-Reflection's model id: its own mock, so each role's calls are counted by the mock that answers them. */
const REFLECTOR_MODEL = "openai:reflector-mock";

/**
 * A mock model for one role that plays `script(n)` for its n-th call (1-based, call order), or the
 * demo model's reply (the product's scripted stand-in, which reads its prompt by design).
 */
function roleModel(script: (n: number) => Reply): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async (call: LanguageModelV3CallOptions) => {
      const reply = script(model.doStreamCalls.length);
      const text = reply === "demo" ? demoReply([qaDemoScriptBook], promptText(call)) : reply.text;
      const finish = reply === "demo" ? "stop" : (reply.finish ?? "stop");
      const chunks: LanguageModelV3StreamPart[] = [
        ...(text === "" ? [] : ([{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: text }, { type: "text-end", id: "t" }] as LanguageModelV3StreamPart[])),
        {
          type: "finish",
          finishReason: { unified: finish, raw: finish },
          usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
        },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
  return model;
}

async function setup(script: (role: "actor" | "reflector", n: number) => Reply, maxTrials = 2) {
  const store = new MemoryRunStore();
  const actor = roleModel((n) => script("actor", n));
  const reflector = roleModel((n) => script("reflector", n));
  const resolveModel = (modelId: string) => (modelId === REFLECTOR_MODEL ? reflector : actor);
  const entry = environmentEntry("qa");
  const task = builtinQaTasks[0]!;
  const config = buildRunConfig(
    { environment: "qa", taskSet: "builtin", taskId: task.id, strategy: "reflexion", modelId: "demo", reflectorModelId: REFLECTOR_MODEL, maxTrials },
    entry,
    task,
    "Built-in",
  );
  const run = await store.createRun({ config, title: task.question });
  const deps = { log: store, model: createCachingModelPort(createModelPort({ resolveModel, maxRetries: 0 }), store), environmentFor: () => qaEnvironment };
  const drive = () => driveRun(deps, { runId: run.id, branchId: run.rootBranchId });
  const events = () => store.list(run.id, run.rootBranchId);
  return { store, run, drive, events, actor, reflector, resolveModel, calls: () => actor.doStreamCalls.length + reflector.doStreamCalls.length };
}

const types = (events: RunEvent[]) => events.map((event) => event.type);

describe("completions that are not the agent's fault", () => {
  it("an empty completion is asked for again; the step uses the good one and nothing counts against the agent", async () => {
    const { drive, events, calls } = await setup((role, n) => (role === "actor" && n <= 2 ? { text: "   " } : "demo"));
    await drive();
    const log = await events();
    const state = foldRun(log);
    expect(state.status).toBe("ended");
    expect(state.callErrors).toEqual([]);
    // Two discarded empty answers, then the step's own call: only that one is recorded.
    const firstStepCalls = log.filter((event) => event.type === "model-call-end" && event.data.trial === 1 && event.data.step === 1);
    expect(firstStepCalls).toHaveLength(1);
    expect(calls()).toBe(state.totals.modelCalls + 2);
    expect(state.trials[0]?.steps[0]?.action?.text).not.toBe("");
  });

  it.each([
    ["empty-completion", { text: "" }],
    ["content-filtered", { text: "I cannot", finish: "content-filter" as const }],
    ["truncated", { text: "Thought 1: I need to search for the opera and then", finish: "length" as const }],
  ])("%s three times: recorded as an errored call, the run pauses, no failed trial, no reflection; Resume goes on", async (code, reply) => {
    let bad = true;
    const { drive, events, store, run } = await setup((role) => (role === "actor" && bad ? reply : "demo"));
    await drive();
    let log = await events();
    expect(types(log).slice(-2)).toEqual(["model-call-error", "run-pause"]);
    const state = foldRun(log);
    expect(state.callErrors[0]).toMatchObject({ code, role: "actor", trial: 1, step: 1, attempts: 3, retryable: true });
    expect(state.pause).toMatchObject({ reason: "model-error" });
    expect(state.pause?.detail).toMatch(/not counted as a failed trial/);
    expect(log.some((event) => event.type === "trial-end" || event.type === "reflection-end")).toBe(false);
    bad = false;
    await store.append(run.id, run.rootBranchId, [draft("run-resume", { reason: "user" })]);
    await drive();
    log = await events();
    expect(foldRun(log).status).toBe("ended");
  });

  it("a completion cut off by the token limit that still holds an action is used, and marked truncated", async () => {
    const { drive, events } = await setup((role, n) => {
      if (role !== "actor" || n !== 1) return "demo";
      return { text: " I should look up the opera first.\nAction 1: Search[The Glass Orchard]\nObservation 1: The Glass Orchard is an op", finish: "length" };
    });
    await drive();
    const step = foldRun(await events()).trials[0]?.steps[0];
    expect(step?.action).toMatchObject({ text: "Search[The Glass Orchard]", truncated: true, parseError: null });
  });

  it("an empty completion is never put in the response cache (a recorded replay does not get it back)", async () => {
    const { drive, store } = await setup((role, n) => (role === "actor" && n === 1 ? { text: "" } : "demo"));
    await drive();
    const hashes: string[] = [];
    for (const run of await store.listRuns(5)) {
      for (const event of await store.list(run.id, run.rootBranchId)) if (event.type === "model-call-end") hashes.push(event.data.requestHash);
    }
    for (const hash of hashes) expect((await store.getCachedResponse(hash))?.text.trim()).not.toBe("");
  });
});

describe("reflections are checked before they enter memory", () => {
  const trial2Prompt = (log: RunEvent[]) => {
    const call = log.find((event): event is RunEventOf<"model-call-end"> => event.type === "model-call-end" && event.data.role === "actor" && event.data.trial === 2);
    return call?.data.messages.map((message) => message.content).join("\n") ?? "";
  };

  it("markup only (three backticks) is asked again; the good lesson, not the backticks, reaches trial 2", async () => {
    const { drive, events } = await setup((role, n) => (role === "reflector" && n === 1 ? { text: "```" } : "demo"));
    await drive();
    const log = await events();
    const reflection = foldRun(log).trials[0]?.reflection;
    expect(reflection?.text).not.toMatch(/^`+$/);
    expect(log.find((event) => event.type === "reflection-end")).toMatchObject({ data: { warning: null } });
    expect(trial2Prompt(log)).toContain(reflection!.text);
  });

  it("a reflection that only repeats the answer, twice, is stored with a warning the memory shows", async () => {
    const { drive, events, reflector } = await setup((role) => (role === "reflector" ? { text: "Paris." } : { text: " Not sure.\nAction 1: Finish[Paris]" }), 2);
    await drive();
    const log = await events();
    expect(foldRun(log).trials[0]?.answer).toBe("Paris");
    expect(log.find((event) => event.type === "reflection-end")).toMatchObject({ data: { text: "Paris.", warning: "the reflection only repeats the trial's answer (asked twice)." } });
    expect(reflector.doStreamCalls).toHaveLength(2);
  });

  it("a reflection identical to one already in memory is asked again, then kept with a warning", async () => {
    const lesson = "I should have searched the town first.";
    const { drive, events } = await setup((role) => (role === "reflector" ? { text: lesson } : { text: " Not sure.\nAction 1: Finish[nope]" }), 3);
    await drive();
    const log = await events();
    const reflections = log.filter((event) => event.type === "reflection-end");
    expect(reflections).toHaveLength(2);
    expect(reflections[0]).toMatchObject({ data: { text: lesson, warning: null } });
    expect(reflections[1]).toMatchObject({ data: { text: lesson, warning: "the reflection repeats one already in memory (asked twice)." } });
  });

  it("a recorded replay of a run whose reflection was asked twice makes no model call (each attempt has its own cache entry)", async () => {
    const lesson = "I should have searched the town first.";
    const { drive, store, run, calls, resolveModel } = await setup((role) => (role === "reflector" ? { text: lesson } : { text: " Not sure.\nAction 1: Finish[nope]" }), 3);
    await drive();
    const callsBefore = calls();
    const branch = await store.createBranch({ runId: run.id, parentBranchId: run.rootBranchId, forkSeq: 1 });
    await store.append(run.id, branch.id, [draft("branch-start", { parentBranchId: run.rootBranchId, forkSeq: 1, reason: "replay", replayMode: "recorded", edits: [] })]);
    const deps = { log: store, model: createCachingModelPort(createModelPort({ resolveModel, maxRetries: 0 }), store), environmentFor: () => qaEnvironment };
    await driveRun(deps, { runId: run.id, branchId: branch.id });
    const own = (await store.list(run.id, branch.id)).filter((event) => event.branchId === branch.id && event.type === "model-call-end");
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((event) => event.type === "model-call-end" && event.data.source === "cache")).toBe(true);
    expect(calls()).toBe(callsBefore);
  });
});

describe("a reflection that is not a lesson (\"925\")", () => {
  it("is asked again; the lesson of the second answer, not the number, reaches trial 2", async () => {
    const { drive, events } = await setup((role, n) => (role === "reflector" && n === 1 ? { text: "925" } : "demo"));
    await drive();
    const log = await events();
    const reflection = foldRun(log).trials[0]?.reflection;
    expect(reflection?.text).not.toBe("925");
    expect(log.find((event) => event.type === "reflection-end")).toMatchObject({ data: { warning: null } });
    const trial2 = log.find((event): event is RunEventOf<"model-call-end"> => event.type === "model-call-end" && event.data.role === "actor" && event.data.trial === 2);
    expect(trial2?.data.messages.map((message) => message.content).join("\n")).toContain(reflection!.text);
  });

  it("twice: kept with a warning that says why, on the reflection the memory panel and the run graph read", async () => {
    const { drive, events, reflector } = await setup((role) => (role === "reflector" ? { text: "925" } : { text: " Not sure.\nAction 1: Finish[nope]" }), 2);
    await drive();
    const log = await events();
    expect(reflector.doStreamCalls).toHaveLength(2);
    const warning = "the reflection is not a lesson: it has no words, only numbers or symbols; a lesson names what went wrong and what to do next (asked twice).";
    expect(log.find((event) => event.type === "reflection-end")).toMatchObject({ data: { text: "925", warning } });
    expect(foldRun(log).trials[0]?.reflection).toMatchObject({ text: "925", warning });
  });
});
