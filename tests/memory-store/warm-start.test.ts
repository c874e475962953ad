import { afterEach, describe, expect, it } from "vitest";
import { foldRun } from "@/lib/domain/fold-run";
import { MemoryRunStore } from "@/lib/db/memory-store";
import { MemoryMemoryStoreRepository } from "@/lib/db/memory-store-entries-memory";
import { SqliteMemoryStoreRepository } from "@/lib/db/memory-store-entries-sqlite";
import type { MemoryStoreRepository } from "@/lib/db/memory-store-entries";
import { qaDemoScriptBook } from "@/lib/environments/qa";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { MemoryStoreService } from "@/lib/server/memory-store-service";
import { demoMockModel } from "../helpers/mock-model";

const contexts: ServerContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.workers.stop();
});

/** A context on an in-memory store with a settable clock; the demo scripts play every model. */
function setup(clock: { now: Date }) {
  const mock = demoMockModel([qaDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }), now: () => clock.now });
  contexts.push(context);
  return context;
}

const qa = { environment: "qa", taskSet: "builtin", strategy: "reflexion", modelId: "demo" } as const;

describe("warm starts from a memory store", () => {
  it("a run writes its reflections; a later run of the same task carries them into trial 1, recorded with their source", async () => {
    const clock = { now: new Date("2026-01-01T00:00:00.000Z") };
    const context = setup(clock);
    const first = await context.service.createRun({ ...qa, taskId: "qa-builtin-01", writeMemory: { store: "team" } });
    await context.workers.untilSettled(first.rootBranchId);
    const firstState = foldRun((await context.service.events(first.id)).events);
    const reflection = firstState.trials[0]?.reflection;
    expect(reflection).toBeTruthy();
    // Another task's reflection must not be carried into qa-builtin-01.
    const other = await context.service.createRun({ ...qa, taskId: "qa-builtin-02", writeMemory: { store: "team" } });
    await context.workers.untilSettled(other.rootBranchId);
    expect((await context.memoryStores.list()).find((s) => s.name === "team")).toMatchObject({ entryCount: 2, taskCount: 2, retentionDays: 30 });

    clock.now = new Date("2026-01-02T00:00:00.000Z");
    const warm = await context.service.createRun({ ...qa, taskId: "qa-builtin-01", warmStart: { store: "team", maxEntries: 3 } });
    await context.workers.untilSettled(warm.rootBranchId);
    const events = (await context.service.events(warm.id)).events;
    const carried = events.find((event) => event.type === "memory-carried-in");
    expect(carried?.type === "memory-carried-in" && carried.data.entries.map((e) => ({ text: e.text, source: e.source }))).toEqual([
      { text: reflection?.text, source: { runId: first.id, branchId: first.rootBranchId, trial: 1, eventId: reflection?.eventId } },
    ]);
    // Recorded right before trial 1, whose memory holds it.
    const trialStart = events.findIndex((event) => event.type === "trial-start");
    expect(events.findIndex((event) => event.type === "memory-carried-in")).toBeLessThan(trialStart);
    const state = foldRun(events);
    expect(state.trials[0]?.memory.map((item) => item.text)).toEqual([reflection?.text]);
    expect(state.carriedIn?.store).toBe("team");
  });

  it("forks do not inherit writeMemory; a fork given a store replaces the same reflection's older entry instead of adding a copy", async () => {
    const context = setup({ now: new Date("2026-01-01T00:00:00.000Z") });
    const run = await context.service.createRun({ ...qa, taskId: "qa-builtin-01", writeMemory: { store: "team-qa" } });
    await context.workers.untilSettled(run.rootBranchId);
    const storeEntries = () => context.memoryStores.entries("team-qa", "qa", "qa-builtin-01");
    expect(await storeEntries()).toHaveLength(1);
    for (let i = 0; i < 3; i += 1) {
      const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded" });
      await context.workers.untilSettled(branchId);
      expect(foldRun((await context.service.events(run.id, 0, branchId)).events).trials[0]?.reflection).toBeTruthy();
    }
    // Three forks reflected, none wrote: the store still holds the root's one entry.
    expect((await storeEntries()).map((e) => e.source.branchId)).toEqual([run.rootBranchId]);
    expect((await context.memoryStores.list()).find((s) => s.name === "team-qa")?.entryCount).toBe(1);

    const { branchId } = await context.service.fork(run.id, { atSeq: 1, replay: "recorded", writeMemory: { store: "team-qa" } });
    await context.workers.untilSettled(branchId);
    // Same text: one entry, now from the fork (the newest source).
    expect((await storeEntries()).map((e) => e.source.branchId)).toEqual([branchId]);
    expect((await context.memoryStores.list()).find((s) => s.name === "team-qa")?.entryCount).toBe(1);
  });

  it("a warm start from an empty store is recorded with no entries (the run does not ask again)", async () => {
    const context = setup({ now: new Date("2026-01-01T00:00:00.000Z") });
    const run = await context.service.createRun({ ...qa, taskId: "qa-builtin-01", warmStart: { store: "nothing-here", maxEntries: 2 } });
    await context.workers.untilSettled(run.rootBranchId);
    const events = (await context.service.events(run.id)).events;
    const carried = events.filter((event) => event.type === "memory-carried-in");
    expect(carried).toHaveLength(1);
    // The store does not exist: the log says so (a typo would otherwise carry in nothing without a word).
    expect(carried[0]?.type === "memory-carried-in" && carried[0].data.note).toBe("memory store 'nothing-here' does not exist (stores: none yet)");
    expect(foldRun(events).trials[0]?.memory).toEqual([]);
  });
});

describe.each<[string, () => MemoryStoreRepository]>([
  ["in memory", () => new MemoryMemoryStoreRepository()],
  ["SQLite", () => new SqliteMemoryStoreRepository(":memory:")],
])("retention (%s)", (_name, make) => {
  it("deletes expired entries (injected clock) and never returns them before the sweep", async () => {
    const clock = { now: new Date("2026-03-01T00:00:00.000Z") };
    const service = new MemoryStoreService(make(), () => clock.now);
    await service.put({ name: "short", retentionDays: 1 });
    const port = service.port();
    const source = (n: number) => ({ runId: "r", branchId: "b", trial: n, eventId: `e${n}` });
    await port.remember({ store: "short", environment: "qa", taskId: "t", text: "old lesson", source: source(1) });
    clock.now = new Date("2026-03-01T20:00:00.000Z");
    await port.remember({ store: "short", environment: "qa", taskId: "t", text: "new lesson", source: source(2) });
    // The same reflection again is not a second entry.
    await port.remember({ store: "short", environment: "qa", taskId: "t", text: "new lesson", source: source(2) });
    expect((await port.carryIn({ store: "short", environment: "qa", taskId: "t", limit: 5 })).map((e) => e.text)).toEqual(["new lesson", "old lesson"]);

    clock.now = new Date("2026-03-02T06:00:00.000Z");
    expect((await port.carryIn({ store: "short", environment: "qa", taskId: "t", limit: 5 })).map((e) => e.text)).toEqual(["new lesson"]);
    expect(await service.sweep()).toBe(1);
    expect((await service.list())[0]).toMatchObject({ name: "short", entryCount: 1 });
    clock.now = new Date("2026-03-03T00:00:00.000Z");
    expect(await service.sweep()).toBe(1);
    expect((await service.list())[0]).toMatchObject({ entryCount: 0, taskCount: 0 });
  });

  it("keeps one entry per task and normalised text (the newest source); warm starts skip older copies", async () => {
    const clock = { now: new Date("2026-03-01T00:00:00.000Z") };
    const repository = make();
    const service = new MemoryStoreService(repository, () => clock.now);
    const port = service.port();
    const source = (n: number) => ({ runId: "r", branchId: `b${n}`, trial: 1, eventId: `e${n}` });
    const write = (text: string, n: number, taskId = "t") => port.remember({ store: "s", environment: "qa", taskId, text, source: source(n) });
    await write("Search the director first.", 1);
    await write("Another lesson.", 2);
    clock.now = new Date("2026-03-01T01:00:00.000Z");
    await write("  search the   director FIRST. ", 3);
    await write("Search the director first.", 4, "other-task");
    const carried = await port.carryIn({ store: "s", environment: "qa", taskId: "t", limit: 3 });
    expect(carried.map((e) => e.source.eventId)).toEqual(["e3", "e2"]);
    expect((await service.list())[0]).toMatchObject({ entryCount: 3, taskCount: 2 });

    // Copies written before deduplication existed are skipped on read.
    await repository.addEntries([
      { id: "legacy", store: "s", environment: "qa", taskId: "t", text: "another LESSON.", source: source(5), createdAt: "2026-02-28T00:00:00.000Z", expiresAt: "2026-04-30T00:00:00.000Z" },
    ]);
    expect((await port.carryIn({ store: "s", environment: "qa", taskId: "t", limit: 3 })).map((e) => e.source.eventId)).toEqual(["e3", "e2"]);
  });
});
