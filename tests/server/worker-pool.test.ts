import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { draft, type RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { RUN_TRIAL_STATS_VERSION, runTrialStats } from "@/lib/domain/run-trial-stats";
import { validStoredStats } from "@/lib/server/run-trial-stats";
import { liveCallMessageSchema, type LiveCallMessage } from "@/lib/domain/live-call";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { demoReply } from "@/lib/llm/demo-model";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { runEventStream } from "@/lib/server/run-event-stream";
import type { WorkerPoolOptions } from "@/lib/server/worker-pool";
import { promptText } from "../helpers/mock-model";

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** A mock model that answers like the demo model, in `pieces` chunks, after `before(call)` resolves. */
function model(options: { before?: (call: LanguageModelV3CallOptions) => Promise<void>; chunkDelayMs?: number; pieces?: (text: string) => string[] } = {}) {
  return new MockLanguageModelV3({
    doStream: async (call) => {
      await options.before?.(call);
      const text = demoReply([qaDemoScriptBook], promptText(call));
      const pieces = options.pieces?.(text) ?? [text];
      const chunks: LanguageModelV3StreamPart[] = [
        { type: "text-start", id: "t" },
        ...pieces.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: options.chunkDelayMs ?? null }) };
    },
  });
}

function setup(mock: MockLanguageModelV3, workers: WorkerPoolOptions = {}): ServerContext {
  return createServerContext({
    store: new MemoryRunStore(),
    model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }),
    workers: { pollMs: 20, intentPollMs: 20, ...workers },
  });
}

const createQaRun = (context: ServerContext, options: { strategy?: "none" | "reflexion"; trials?: number; modelId?: string } = {}) =>
  context.service.createRun({
    environment: "qa",
    taskSet: "builtin",
    taskId: "qa-builtin-01",
    strategy: options.strategy ?? "reflexion",
    modelId: options.modelId ?? "demo",
    maxTrials: options.trials ?? 3,
  });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The most runs whose [first own step, run-end] intervals overlap at one instant, from the events' timestamps. */
function maxOverlap(logs: RunEvent[][]): number {
  const points: Array<[number, number]> = [];
  for (const log of logs) {
    const start = log.find((event) => event.type === "trial-start");
    const end = log.find((event) => event.type === "run-end");
    if (!start || !end) throw new Error("a run did not start or end");
    points.push([Date.parse(start.occurredAt), 1], [Date.parse(end.occurredAt), -1]);
  }
  // Ends sort before starts at the same millisecond: a slot freed and taken in one ms is not an overlap.
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, delta] of points) {
    now += delta;
    max = Math.max(max, now);
  }
  return max;
}

describe("worker pool: runs are queued and claimed from the store", () => {
  it("stores a run's trial stats when its drive ends the run, as the log gives them", async () => {
    const context = setup(model());
    const run = await createQaRun(context, { trials: 2 });
    await context.workers.untilSettled(run.rootBranchId);
    const [row] = await context.store.experiments.trialStatsOfRuns([run.id]);
    expect(row?.status).toBe("ended");
    expect(row?.stored).toMatchObject({ branchId: run.rootBranchId, lastSeq: row?.lastSeq, version: RUN_TRIAL_STATS_VERSION });
    expect(row && validStoredStats(row)).toEqual(runTrialStats((await context.service.events(run.id)).events));
    await context.close();
  });

  it("drains 12 queued runs with concurrency 3: all end, never more than 3 in flight (seen in the events)", async () => {
    const context = setup(model({ before: () => sleep(3) }), { concurrency: 3 });
    const runs = [];
    for (let i = 0; i < 12; i += 1) runs.push(await createQaRun(context, { strategy: i % 2 === 0 ? "none" : "reflexion", trials: 2 }));
    // Created runs are queued until a worker claims them.
    const statuses = await Promise.all(runs.map((run) => context.service.status(run)));
    expect(statuses.filter((status) => status === "queued").length).toBeGreaterThanOrEqual(9);
    for (const run of runs) await context.workers.untilSettled(run.rootBranchId);
    const logs = await Promise.all(runs.map(async (run) => (await context.service.events(run.id)).events));
    expect(logs.every((log) => foldRun(log).status === "ended")).toBe(true);
    const overlap = maxOverlap(logs);
    expect(overlap).toBeLessThanOrEqual(3);
    expect(overlap).toBeGreaterThanOrEqual(2); // it did run them side by side
    expect(context.workers.maxObservedConcurrency).toBe(3);
  });

  it("honours a per-provider cap below the global limit", async () => {
    const context = setup(model({ before: () => sleep(2) }), { concurrency: 4, providerCaps: { demo: 1 } });
    const runs = [];
    for (let i = 0; i < 4; i += 1) runs.push(await createQaRun(context, { strategy: "none", trials: 1 }));
    for (const run of runs) await context.workers.untilSettled(run.rootBranchId);
    const logs = await Promise.all(runs.map(async (run) => (await context.service.events(run.id)).events));
    expect(maxOverlap(logs)).toBe(1);
    expect(context.workers.maxObservedConcurrency).toBe(1);
  });

  it("takes over a branch whose worker died and finishes it from its log, doing nothing twice", async () => {
    // No pool running: build an interrupted run by hand — a first trial half done by a worker on another host whose lease lapsed.
    const store = new MemoryRunStore();
    const idle = createServerContext({ store, model: createModelPort({ resolveModel: () => model(), maxRetries: 0 }), startWorkers: false });
    const run = await createQaRun(idle, { strategy: "reflexion", trials: 3 });
    await idle.workers.drive(run.id, run.rootBranchId);
    await idle.workers.settled(run.rootBranchId);
    const full = (await idle.service.events(run.id)).events;
    const cut = full.findIndex((event) => event.type === "step-observation" && event.data.trial === 2);
    const partial = createServerContext({ store: new MemoryRunStore(), startWorkers: false });
    const copy = await partial.store.createRun({ config: run.config, title: run.title });
    const drafts = full.slice(1, cut + 1).map((event) => draft(event.type, event.data as never, { id: undefined, causedBy: null }));
    await partial.store.append(copy.id, copy.rootBranchId, drafts);
    await partial.store.claimLease(copy.rootBranchId, "another-host:4242:dead", 15_000, Date.now() - 60_000);
    expect(await partial.service.status(copy)).toBe("interrupted");

    const rescuer = createServerContext({ store: partial.store, model: createModelPort({ resolveModel: () => model(), maxRetries: 0 }), workers: { pollMs: 20 } });
    await until(async () => (await rescuer.service.status(copy)) === "ended", "the takeover to finish");
    const log = (await rescuer.service.events(copy.id)).events;
    expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
    // Every (trial, step) was acted once; every trial started once; the outcome is the full run's.
    const steps = log.filter((event) => event.type === "step-action").map((event) => `${event.data.trial}:${event.data.step}`);
    expect(new Set(steps).size).toBe(steps.length);
    expect(log.filter((event) => event.type === "trial-start").map((event) => event.data.trial)).toEqual([1, 2]);
    expect(foldRun(log).outcome).toBe(foldRun(full).outcome);
  });
});

describe("pause and cancel are requests in the log, answered at once", () => {
  it("Pause answers `pausing` while a model call hangs; the run pauses when that call returns", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const context = setup(model({ before: async () => (++calls === 2 ? gate : undefined) }));
    const run = await createQaRun(context);
    await until(async () => calls === 2 && (await context.service.liveness(run, run.rootBranchId)).activeCall, "the second call to start");
    expect(await context.service.pause(run.id)).toBe("pausing");
    expect(await context.service.status(run)).toBe("pausing");
    release();
    await context.workers.untilSettled(run.rootBranchId);
    const log = (await context.service.events(run.id)).events;
    const types = log.map((event) => event.type);
    expect(types.at(-1)).toBe("run-pause");
    // The hanging call was not thrown away: its step landed between the request and the pause.
    expect(types.slice(types.indexOf("pause-request"))).toEqual(["pause-request", "model-call-end", "step-thought", "step-action", "step-observation", "run-pause"]);
    expect(await context.service.status(run)).toBe("paused");
  });

  it("Cancel aborts the model call in flight and ends the run as cancelled", async () => {
    let aborted = 0;
    const hanging = model({
      before: (call) =>
        new Promise<void>((_, reject) => {
          call.abortSignal?.addEventListener("abort", () => {
            aborted += 1;
            reject(call.abortSignal?.reason instanceof Error ? call.abortSignal.reason : new Error("aborted"));
          });
        }),
    });
    const context = setup(hanging);
    const run = await createQaRun(context);
    await until(async () => (await context.service.liveness(run, run.rootBranchId)).activeCall, "the first call to start");
    expect(await context.service.cancel(run.id)).toBe("cancelling");
    await context.workers.untilSettled(run.rootBranchId);
    const log = (await context.service.events(run.id)).events;
    expect(log.slice(-3).map((event) => event.type)).toEqual(["cancel-request", "run-cancel", "run-end"]);
    expect(log.some((event) => event.type === "model-call-end" || event.type === "model-call-error")).toBe(false);
    expect(foldRun(log).outcome).toBe("cancelled");
    expect(aborted).toBe(1);
    expect((await context.service.liveness(run, run.rootBranchId)).activeCall).toBeNull();
  });

  it("a queued run no worker holds is paused or cancelled at once", async () => {
    const context = createServerContext({ store: new MemoryRunStore(), startWorkers: false });
    const a = await createQaRun(context);
    const b = await createQaRun(context);
    expect(await context.service.status(a)).toBe("queued");
    expect(await context.service.pause(a.id)).toBe("paused");
    expect(await context.service.cancel(b.id)).toBe("ended");
    expect((await context.service.events(b.id)).events.map((event) => event.type)).toEqual(["run-start", "cancel-request", "run-cancel", "run-end"]);
    // Resume puts it back in the queue.
    await context.service.resume(a.id);
    expect(await context.service.status(a)).toBe("queued");
  });
});

describe("live tokens over SSE", () => {
  it("streams coalesced token deltas of the call in flight to an SSE client, never splitting a character", async () => {
    // The reflection arrives in 60 small pieces, 4 ms apart, with an emoji split into its two UTF-16 halves.
    const pieces = (text: string) => {
      const out = text.split("").slice(0, 58);
      return [...out, "\ud83d", `\ude00${text.slice(58)}`];
    };
    const context = setup(model({ chunkDelayMs: 4, pieces }));
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 1 });
    const abort = new AbortController();
    const response = runEventStream(context.service, context.bus, run.id, run.rootBranchId, 0, abort.signal);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let buffer = "";
    const live: LiveCallMessage[] = [];
    const events: RunEvent[] = [];
    while (!events.some((event) => event.type === "run-end")) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) !== -1) {
        const message = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const type = /^event: (.+)$/m.exec(message)?.[1];
        const data = /^data: (.+)$/m.exec(message)?.[1];
        if (type === "live-call" && data) live.push(liveCallMessageSchema.parse(JSON.parse(data)));
        if (type === "run-event" && data) events.push(JSON.parse(data) as RunEvent);
      }
    }
    abort.abort();
    const firstCall = live.find((message) => message.kind === "call-start")!;
    const deltas = live.filter((message) => message.kind === "token-delta" && message.startedAt === firstCall.startedAt && message.trial === firstCall.trial && message.step === firstCall.step);
    const callEnd = events.find((event) => event.type === "model-call-end" && event.data.trial === firstCall.trial && event.data.step === firstCall.step);
    expect(callEnd?.type).toBe("model-call-end");
    if (callEnd?.type !== "model-call-end") return;
    // What streamed is exactly what was recorded, and it came in far fewer messages than chunks (≤ ~10/s).
    expect(deltas.map((message) => (message.kind === "token-delta" ? message.text : "")).join("")).toBe(callEnd.data.outputText);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.length).toBeLessThan(15);
    expect(callEnd.data.outputText).toContain("\ud83d\ude00");
    for (const message of deltas) {
      if (message.kind !== "token-delta") continue;
      const last = message.text.charCodeAt(message.text.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
  });

  it("a client that connects in the middle of a call gets the text so far, then the rest: nothing missing, nothing twice", async () => {
    const context = setup(model({ chunkDelayMs: 8, pieces: (text) => text.split("") }));
    const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo", maxTrials: 1 });
    const inFlight = await until(async () => {
      const live = context.workers.liveCall(run.rootBranchId);
      return live && live.text.length > 5 ? live : null;
    }, "some streamed text");
    const abort = new AbortController();
    const reader = runEventStream(context.service, context.bus, run.id, run.rootBranchId, 0, abort.signal).body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    let text = "";
    let recorded: string | null = null;
    while (recorded === null) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) !== -1) {
        const message = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const type = /^event: (.+)$/m.exec(message)?.[1];
        const data = /^data: (.+)$/m.exec(message)?.[1];
        if (!data) continue;
        if (type === "live-call") {
          const live = liveCallMessageSchema.parse(JSON.parse(data));
          if (live.kind === "token-delta" && live.startedAt === inFlight.call.startedAt) text += live.text;
        }
        if (type === "run-event") {
          const event = JSON.parse(data) as RunEvent;
          if (event.type === "model-call-end" && event.data.trial === inFlight.call.trial && event.data.step === inFlight.call.step && event.data.role === inFlight.call.role) {
            recorded = event.data.outputText;
          }
        }
      }
    }
    abort.abort();
    expect(text).toBe(recorded);
  });
});
