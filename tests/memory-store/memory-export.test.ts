import { describe, expect, it } from "vitest";
import { MemoryMemoryStoreRepository } from "@/lib/db/memory-store-entries-memory";
import { isAppError } from "@/lib/domain/errors";
import { INSIGHT_MEMORY_PREFIX } from "@/lib/domain/insights";
import { memoryExportSchema, memoryExportText } from "@/lib/domain/memory-export";
import { MemoryStoreService } from "@/lib/server/memory-store-service";
import { makeMemoryEntry } from "./memory-entry-store-contract";

const NOW = new Date("2026-01-10T00:00:00.000Z");
const PROVENANCE = { experimentId: "exp-1", runIds: ["run-a", "run-b"], template: { id: "expel/insights", version: 1 }, model: "demo" };

/**
 * A store `lab` with: two reflections on qa/t1 (one an older copy of a later one's text), one on
 * qa/t2, one on household/t1, an expired one, and two qa insights written by an extraction.
 */
async function setup() {
  const repository = new MemoryMemoryStoreRepository();
  let clock = new Date("2026-01-05T00:00:00.000Z");
  const service = new MemoryStoreService(repository, () => clock);
  await service.put({ name: "lab", retentionDays: 30 });
  await service.put({ name: "other", retentionDays: 30 });
  await repository.addEntries([
    makeMemoryEntry("t1-old", { text: "Search the town  first.", createdAt: "2026-01-01T00:00:00.000Z" }),
    makeMemoryEntry("t1-copy", { text: "search the town first.", createdAt: "2026-01-03T00:00:00.000Z" }),
    makeMemoryEntry("t1-new", { text: "Answer with the river,\nnot the town.", createdAt: "2026-01-04T00:00:00.000Z" }),
    makeMemoryEntry("t2", { taskId: "t2", createdAt: "2026-01-02T00:00:00.000Z" }),
    makeMemoryEntry("hh", { environment: "household", createdAt: "2026-01-06T00:00:00.000Z" }),
    makeMemoryEntry("gone", { createdAt: "2025-12-01T00:00:00.000Z", expiresAt: "2026-01-09T00:00:00.000Z" }),
    makeMemoryEntry("elsewhere", { store: "other" }),
  ]);
  clock = new Date("2026-01-07T00:00:00.000Z");
  const insights = await service.addInsights({ store: "lab", environment: "qa", insights: ["Check the question's last clause.", "Finish only after reading the page."], provenance: PROVENANCE });
  clock = NOW;
  return { service, insights };
}

describe("MemoryStoreService.exportEntries", () => {
  it("without filters returns every unexpired entry of the store, newest first, one per task and text, insights marked", async () => {
    const { service, insights } = await setup();
    const exported = await service.exportEntries("lab");
    expect(memoryExportSchema.parse(exported)).toEqual(exported);
    expect(exported.store).toBe("lab");
    expect(exported.entries.map((entry) => [entry.id, entry.kind])).toEqual([
      // One extraction: the same createdAt, ids by list position descending.
      [insights[1]!.id, "insight"],
      [insights[0]!.id, "insight"],
      ["hh", "reflection"],
      ["t1-new", "reflection"],
      ["t1-copy", "reflection"],
      ["t2", "reflection"],
    ]);
    const insight = exported.entries[1]!;
    expect(insight.provenance).toEqual(PROVENANCE);
    expect(insight.text).toBe("Check the question's last clause.");
    expect(exported.entries.find((entry) => entry.id === "t2")?.source).toEqual({ runId: "run-1", branchId: "br-1", trial: 1, eventId: "ev-t2" });
    expect(exported.entries.find((entry) => entry.id === "t2")?.provenance).toBeUndefined();
  });

  it("filters by family, by task (with the family's insights) and by limit", async () => {
    const { service, insights } = await setup();
    expect((await service.exportEntries("lab", { family: "household" })).entries.map((entry) => entry.id)).toEqual(["hh"]);
    expect((await service.exportEntries("lab", { family: "qa", task: "t1" })).entries.map((entry) => entry.id)).toEqual([insights[1]!.id, insights[0]!.id, "t1-new", "t1-copy"]);
    // A task in two families: each family's reflections, with the insights of the families it has reflections in (household has none).
    expect((await service.exportEntries("lab", { task: "t1" })).entries.map((entry) => entry.id)).toEqual([insights[1]!.id, insights[0]!.id, "hh", "t1-new", "t1-copy"]);
    expect((await service.exportEntries("lab", { task: "t2", family: "household" })).entries).toEqual([]);
    expect((await service.exportEntries("lab", { limit: 2 })).entries.map((entry) => entry.kind)).toEqual(["insight", "insight"]);
    expect((await service.exportEntries("lab", { task: "t2", limit: 1 })).entries.map((entry) => entry.id)).toEqual([insights[1]!.id]);
  });

  it("names the existing stores for an unknown one, says how to make one when there is none, and refuses an unknown family", async () => {
    const { service } = await setup();
    const unknown = await service.exportEntries("nope").catch((error: unknown) => error);
    expect(isAppError(unknown) && unknown.code).toBe("not-found");
    expect((unknown as Error).message).toBe("No memory store nope. The stores are: lab, other.");
    const empty = await new MemoryStoreService(new MemoryMemoryStoreRepository()).exportEntries("lab").catch((error: unknown) => error);
    expect((empty as Error).message).toMatch(/^No memory store lab\. There are no memory stores yet: a run with writeMemory \(cli run --write-memory <store>\)/u);
    const family = await service.exportEntries("lab", { family: "chess" }).catch((error: unknown) => error);
    expect(isAppError(family) && family.code).toBe("invalid-input");
    expect((family as Error).message).toMatch(/^No task family chess; the families are .*qa/u);
  });
});

describe("memoryExportText", () => {
  it("writes one entry per line, whitespace collapsed, insights with the memory prefix; nothing for no entries", async () => {
    const { service } = await setup();
    const exported = await service.exportEntries("lab", { family: "qa", task: "t1" });
    expect(memoryExportText(exported)).toBe(
      [
        `${INSIGHT_MEMORY_PREFIX}Finish only after reading the page.`,
        `${INSIGHT_MEMORY_PREFIX}Check the question's last clause.`,
        "Answer with the river, not the town.",
        "search the town first.",
        "",
      ].join("\n"),
    );
    expect(memoryExportText({ entries: [] })).toBe("");
  });
});
