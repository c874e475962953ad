import { expect, it } from "vitest";
import type { MemoryStoreRepository } from "@/lib/db/memory-store-entries";
import type { MemoryEntry } from "@/lib/domain/memory-store";

/** A valid entry of store `lab`, task `qa`/`t1`, written 2026-01-02 and expiring 2026-02-01; `overrides` replace fields. */
export function makeMemoryEntry(id: string, overrides: Partial<MemoryEntry> = {}): MemoryEntry {
  return {
    id,
    store: "lab",
    environment: "qa",
    taskId: "t1",
    text: `reflection ${id}`,
    source: { runId: "run-1", branchId: "br-1", trial: 1, eventId: `ev-${id}` },
    createdAt: "2026-01-02T00:00:00.000Z",
    expiresAt: "2026-02-01T00:00:00.000Z",
    ...overrides,
  };
}

const NOW = "2026-01-10T00:00:00.000Z";
const CREATED = "2026-01-01T00:00:00.000Z";

/**
 * The rules every {@link MemoryStoreRepository} keeps (memory, SQLite, PostgreSQL): named stores
 * with a retention, entries unique per store and source event, a task's unexpired entries newest
 * first, and deletion by id or by expiry (`expiresAt ≤ now`). `make` hands out an empty repository.
 */
export function memoryEntryStoreContract(make: () => Promise<MemoryStoreRepository>): void {
  it("starts with no stores; an unknown store has no retention", async () => {
    const repo = await make();
    expect(await repo.listStores(NOW)).toEqual([]);
    expect(await repo.retentionOf("lab")).toBeNull();
  });

  it("creates stores, lists them by name, and a second put changes the retention but not the creation time", async () => {
    const repo = await make();
    await repo.putStore({ name: "zeta", retentionDays: 30, createdAt: CREATED });
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await repo.putStore({ name: "lab", retentionDays: 7, createdAt: "2026-06-01T00:00:00.000Z" });
    expect(await repo.retentionOf("lab")).toBe(7);
    expect(await repo.listStores(NOW)).toEqual([
      { name: "lab", retentionDays: 7, createdAt: CREATED, entryCount: 0, taskCount: 0 },
      { name: "zeta", retentionDays: 30, createdAt: CREATED, entryCount: 0, taskCount: 0 },
    ]);
  });

  it("adds entries and reads them back exactly; an empty batch adds nothing", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    const entry = makeMemoryEntry("a", { text: "Search the director first; then the film.", source: { runId: "run-9", branchId: "br-9", trial: 3, eventId: "ev-a" } });
    expect(await repo.addEntries([entry])).toBe(1);
    expect(await repo.addEntries([])).toBe(0);
    expect(await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: NOW, limit: 10 })).toEqual([entry]);
  });

  it("keeps an ExpeL insight's provenance and reads it back; a reflection has none", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    const provenance = { experimentId: "exp-1", runIds: ["run-1", "run-2"], template: { id: "expel/insights", version: 1 }, model: "demo" };
    const insight = makeMemoryEntry("i", { taskId: "*insights*", text: "Search exact titles.", provenance });
    await repo.addEntries([insight, makeMemoryEntry("r")]);
    expect(await repo.entriesFor({ store: "lab", environment: "qa", taskId: "*insights*", now: NOW, limit: 5 })).toEqual([insight]);
    const [reflection] = await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: NOW, limit: 5 });
    expect(reflection).toEqual(makeMemoryEntry("r"));
    expect(reflection && "provenance" in reflection).toBe(false);
  });

  it("keeps a trace reflection's provenance (evaluator, template, model, import) apart from an insight's", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    const reflectedOn = {
      kind: "trace-reflection" as const,
      evaluator: "judge" as const,
      verdictSource: "rubric judge demo: 0.40 < 0.70",
      template: { id: "external/reflect", version: 2, versionId: "tv-0123456789abcdef" },
      model: "demo",
      experimentId: "exp-7",
      importedFrom: "agent-traces.otlp.jsonl",
    };
    const entry = makeMemoryEntry("t", { environment: "external", taskId: "task-1", text: "Next time I will narrow the query.", reflectedOn });
    await repo.addEntries([entry]);
    const [read] = await repo.entriesFor({ store: "lab", environment: "external", taskId: "task-1", now: NOW, limit: 5 });
    expect(read).toEqual(entry);
    expect(read && "provenance" in read).toBe(false);
  });

  it("skips an entry whose store and source event exist already (even under another id), but not the same event in another store", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await repo.putStore({ name: "other", retentionDays: 30, createdAt: CREATED });
    expect(await repo.addEntries([makeMemoryEntry("a")])).toBe(1);
    expect(await repo.addEntries([makeMemoryEntry("a2", { source: makeMemoryEntry("a").source, text: "changed" }), makeMemoryEntry("b")])).toBe(1);
    expect(await repo.addEntries([makeMemoryEntry("a3", { store: "other", source: makeMemoryEntry("a").source })])).toBe(1);
    const lab = await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: NOW, limit: 10 });
    expect(lab.map((e) => [e.id, e.text]).sort()).toEqual([
      ["a", "reflection a"],
      ["b", "reflection b"],
    ]);
    expect((await repo.entriesFor({ store: "other", environment: "qa", taskId: "t1", now: NOW, limit: 10 })).map((e) => e.id)).toEqual(["a3"]);
  });

  it("refuses an entry of a store that does not exist and keeps nothing of its batch", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await expect(repo.addEntries([makeMemoryEntry("a"), makeMemoryEntry("b", { store: "missing" })])).rejects.toThrow();
    expect(await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: NOW, limit: 10 })).toEqual([]);
  });

  it("returns a task's unexpired entries only, newest first (then id), at most limit", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await repo.putStore({ name: "other", retentionDays: 30, createdAt: CREATED });
    await repo.addEntries([
      makeMemoryEntry("old", { createdAt: "2026-01-02T00:00:00.000Z" }),
      makeMemoryEntry("new", { createdAt: "2026-01-05T00:00:00.000Z" }),
      makeMemoryEntry("tie-a", { createdAt: "2026-01-04T00:00:00.000Z" }),
      makeMemoryEntry("tie-b", { createdAt: "2026-01-04T00:00:00.000Z" }),
      makeMemoryEntry("expired", { createdAt: "2026-01-06T00:00:00.000Z", expiresAt: NOW }),
      makeMemoryEntry("other-task", { taskId: "t2" }),
      makeMemoryEntry("other-family", { environment: "household" }),
      makeMemoryEntry("other-store", { store: "other" }),
    ]);
    const query = { store: "lab", environment: "qa", taskId: "t1", now: NOW };
    expect((await repo.entriesFor({ ...query, limit: 10 })).map((e) => e.id)).toEqual(["new", "tie-b", "tie-a", "old"]);
    expect((await repo.entriesFor({ ...query, limit: 2 })).map((e) => e.id)).toEqual(["new", "tie-b"]);
    expect((await repo.entriesFor({ ...query, now: "2026-01-09T23:59:59.999Z", limit: 1 })).map((e) => e.id)).toEqual(["expired"]);
  });

  it("without a task reads every task of the family, without a family every entry of the store, still newest first and unexpired", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await repo.putStore({ name: "other", retentionDays: 30, createdAt: CREATED });
    await repo.addEntries([
      makeMemoryEntry("t1", { createdAt: "2026-01-02T00:00:00.000Z" }),
      makeMemoryEntry("t2", { taskId: "t2", createdAt: "2026-01-03T00:00:00.000Z" }),
      makeMemoryEntry("household", { environment: "household", createdAt: "2026-01-04T00:00:00.000Z" }),
      makeMemoryEntry("expired", { taskId: "t3", expiresAt: NOW }),
      makeMemoryEntry("other-store", { store: "other", createdAt: "2026-01-05T00:00:00.000Z" }),
    ]);
    expect((await repo.entriesFor({ store: "lab", environment: "qa", now: NOW, limit: 10 })).map((e) => e.id)).toEqual(["t2", "t1"]);
    expect((await repo.entriesFor({ store: "lab", now: NOW, limit: 10 })).map((e) => e.id)).toEqual(["household", "t2", "t1"]);
    expect((await repo.entriesFor({ store: "lab", now: NOW, limit: 2 })).map((e) => e.id)).toEqual(["household", "t2"]);
    expect((await repo.entriesFor({ store: "lab", taskId: "t1", now: NOW, limit: 10 })).map((e) => e.id)).toEqual(["household", "t1"]);
  });

  it("counts a store's unexpired entries and its distinct tasks (family and task id)", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await repo.addEntries([
      makeMemoryEntry("a"),
      makeMemoryEntry("b"),
      makeMemoryEntry("c", { taskId: "t2" }),
      makeMemoryEntry("d", { environment: "household" }),
      makeMemoryEntry("gone", { taskId: "t3", expiresAt: "2026-01-05T00:00:00.000Z" }),
    ]);
    expect(await repo.listStores(NOW)).toEqual([{ name: "lab", retentionDays: 30, createdAt: CREATED, entryCount: 4, taskCount: 3 }]);
    expect(await repo.listStores("2026-01-04T00:00:00.000Z")).toEqual([{ name: "lab", retentionDays: 30, createdAt: CREATED, entryCount: 5, taskCount: 4 }]);
  });

  it("deletes entries by id (unknown ids ignored) and returns how many went", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await repo.addEntries([makeMemoryEntry("a"), makeMemoryEntry("b"), makeMemoryEntry("c")]);
    expect(await repo.deleteEntries(["a", "c", "nope"])).toBe(2);
    expect(await repo.deleteEntries([])).toBe(0);
    expect((await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: NOW, limit: 10 })).map((e) => e.id)).toEqual(["b"]);
  });

  it("deletes every entry expired at now (expiresAt ≤ now), in every store, and returns how many", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    await repo.putStore({ name: "other", retentionDays: 1, createdAt: CREATED });
    await repo.addEntries([
      makeMemoryEntry("past", { expiresAt: "2026-01-09T00:00:00.000Z" }),
      makeMemoryEntry("at-now", { expiresAt: NOW }),
      makeMemoryEntry("later", { expiresAt: "2026-01-10T00:00:00.001Z" }),
      makeMemoryEntry("other-past", { store: "other", expiresAt: "2026-01-03T00:00:00.000Z" }),
    ]);
    expect(await repo.deleteExpired(NOW)).toBe(3);
    expect(await repo.deleteExpired(NOW)).toBe(0);
    expect((await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: "2026-01-01T00:00:00.000Z", limit: 10 })).map((e) => e.id)).toEqual(["later"]);
  });

  it("hands out copies: changing a returned entry's source does not change the store", async () => {
    const repo = await make();
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: CREATED });
    const entry = makeMemoryEntry("a");
    await repo.addEntries([entry]);
    entry.source.trial = 99;
    const [first] = await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: NOW, limit: 1 });
    if (first) first.source.eventId = "changed";
    expect((await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now: NOW, limit: 1 }))[0]?.source).toEqual({ runId: "run-1", branchId: "br-1", trial: 1, eventId: "ev-a" });
  });
}
