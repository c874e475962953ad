import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/domain/events";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext } from "@/lib/server/app-context";
import { demoMockModel } from "../helpers/mock-model";

/** A server context on an in-memory store whose only model is an AI SDK mock playing the demo scripts. */
function setup() {
  const mock = demoMockModel([qaDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
  return { context, mock };
}

async function finishedRun(context: ReturnType<typeof setup>["context"]) {
  const run = await context.service.createRun({ environment: "qa", taskSet: "builtin", taskId: "qa-builtin-01", strategy: "reflexion", modelId: "demo" });
  await context.workers.untilSettled(run.rootBranchId);
  return { run, events: (await context.service.events(run.id)).events };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * What must be equal between a run and its replay: every event's type and data,
 * except generated ids (event and call ids, also inside memory items), latency,
 * the cache marker, cost and the checkpoint digest (which covers memory item ids).
 */
function comparable(events: RunEvent[]) {
  return events
    .filter((event) => event.type !== "run-start" && event.type !== "branch-start")
    .map((event) => {
      const data: Record<string, unknown> = { ...event.data };
      for (const key of ["latencyMs", "source", "costUsd", "digest"]) delete data[key];
      return { type: event.type, data: JSON.parse(JSON.stringify(data).replace(UUID, "<id>")) as unknown };
    });
}

describe("fork and replay with the response cache", () => {
  it("a recorded replay of a finished run makes no model call and reproduces its events", async () => {
    const { context, mock } = setup();
    const { run, events } = await finishedRun(context);
    const callsBefore = mock.doStreamCalls.length;
    expect(callsBefore).toBe(6);

    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
    await context.workers.untilSettled(branchId);
    const replay = (await context.service.events(run.id, 0, branchId)).events;

    expect(mock.doStreamCalls.length).toBe(callsBefore);
    const totals = foldRun(replay.filter((event) => event.branchId === branchId)).totals;
    expect(totals).toMatchObject({ liveCalls: 0, cachedCalls: 6, costUsd: 0 });
    expect(comparable(replay)).toEqual(comparable(events));
    expect(foldRun(replay).trials.map((t) => t.outcome)).toEqual(foldRun(events).trials.map((t) => t.outcome));
  });

  it("a live replay calls the models again", async () => {
    const { context, mock } = setup();
    const { run } = await finishedRun(context);
    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "live" });
    await context.workers.untilSettled(branchId);
    expect(mock.doStreamCalls.length).toBe(12);
  });

  it("a fork that edits trial 1's reflection calls models only from trial 2 on, and sees the edit", async () => {
    const { context, mock } = setup();
    const { run, events } = await finishedRun(context);
    const reflection = events.find((event) => event.type === "reflection-end");
    const checkpoint = events.find((event) => event.type === "checkpoint" && reflection && event.seq > reflection.seq);
    if (!reflection || !checkpoint) throw new Error("the run has no reflection checkpoint");
    const edited = "Answer with the name of the town; that is always what such questions want.";
    const callsBefore = mock.doStreamCalls.length;

    const { branchId } = await context.service.fork(run.id, {
      atSeq: checkpoint.seq,
      replay: "recorded",
      edits: [{ kind: "reflection", reflectionEventId: reflection.id, text: edited }],
    });
    await context.workers.untilSettled(branchId);
    const branchEvents = (await context.service.events(run.id, 0, branchId)).events;
    const own = branchEvents.filter((event) => event.branchId === branchId);

    expect(own[0]).toMatchObject({ type: "branch-start", seq: checkpoint.seq + 1, data: { forkSeq: checkpoint.seq, reason: "edit" } });
    expect(own[1]).toMatchObject({ type: "reflection-edit", data: { newText: edited } });
    const calls = own.filter((event) => event.type === "model-call-end");
    expect(calls.every((event) => event.type === "model-call-end" && event.data.trial >= 2)).toBe(true);
    const firstActor = calls[0];
    expect(firstActor?.type === "model-call-end" && firstActor.data.source).toBe("live");
    expect(firstActor?.type === "model-call-end" && firstActor.data.messages[0]?.content).toContain(edited);
    expect(mock.doStreamCalls.length).toBeGreaterThan(callsBefore);
    // The parent branch is untouched.
    expect((await context.service.events(run.id)).events).toEqual(events);
  });

  it("a fork can set its own breakpoints instead of inheriting its parent's", async () => {
    const { context } = setup();
    const run = await context.service.createRun({
      environment: "qa",
      taskSet: "builtin",
      taskId: "qa-builtin-01",
      strategy: "reflexion",
      modelId: "demo",
      breakpoints: { afterReflection: true },
    });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const checkpoint = events.filter((e) => e.type === "checkpoint").at(-1)!;
    const { branchId } = await context.service.fork(run.id, { atSeq: checkpoint.seq, replay: "recorded", breakpoints: {} });
    await context.workers.untilSettled(branchId);
    const state = foldRun((await context.service.events(run.id, 0, branchId)).events);
    expect(state.breakpoints.afterReflection).toBe(false);
    expect(state.status).toBe("ended");
  });

  it("forks only at checkpoints, and says where they are", async () => {
    const { context } = setup();
    const { run, events } = await finishedRun(context);
    const notCheckpoint = events.find((event) => event.type === "reflection-end");
    await expect(context.service.fork(run.id, { atSeq: notCheckpoint!.seq, replay: "recorded" })).rejects.toThrow(/Forks start at a checkpoint: seq \d+ is a reflection-end event\. Checkpoints here: 1 \(run start\), \d+/);
  });
});
