import { expect, it } from "vitest";
import type { OptimisationStore } from "@/lib/db/optimisation-store";
import type { OptimisationCandidate, OptimisationRecord } from "@/lib/domain/optimiser/types";

/** A valid record; `overrides` replace top-level fields. */
export function makeOptimisationRecord(overrides: Partial<OptimisationRecord> = {}): OptimisationRecord {
  const start: OptimisationCandidate = {
    key: "0:0", round: 0, index: 0, versionId: "tv-0000000000000001", parentId: null, status: "evaluated", error: null, failuresRead: [],
    trainExperimentId: "exp-1", train: { rate: 0.25, interval: [0.05, 0.7], n: 4, repeats: 1 }, trainByTask: { a: 1, b: 0, c: 0, d: 0 },
    heldOutExperimentId: null, heldOut: null, parentHeldOut: null, pVsParent: null, onFront: true, costUsd: 0, tokens: 1200,
  };
  return {
    id: "opt-000000000001",
    createdAt: "2026-12-01T10:00:00.000Z",
    updatedAt: "2026-12-01T10:00:00.000Z",
    status: "running",
    detail: null,
    request: {
      experimentId: "exp-0", arm: "reflexion", role: "reflector", family: "qa", strategy: "reflexion", startVersionId: "tv-0000000000000001",
      targetTemplateId: "tpl-aaaaaaaaaaaa", metaPromptVersionId: "tv-00000000000000ff", modelId: "demo", trainFraction: 0.7, seed: 0, budget: { tokens: 5000 },
      candidatesPerRound: 2, rounds: 2, repeats: 1, maxTrials: 2, failuresPerProposal: 6,
    },
    split: { train: ["a", "b", "c", "d"], heldOut: ["e", "f"] },
    candidates: [start],
    spend: { usd: 0, tokens: 1200 },
    ...overrides,
  };
}

/** The rules every {@link OptimisationStore} keeps (memory, SQLite, PostgreSQL). */
export function optimisationStoreContract(make: () => OptimisationStore): void {
  it("stores a record and reads it back exactly; an unknown id is null", async () => {
    const store = make();
    const record = makeOptimisationRecord();
    await store.createOptimisation(record);
    expect(await store.getOptimisation(record.id)).toEqual(record);
    expect(await store.getOptimisation("opt-missing")).toBeNull();
  });

  it("refuses a second record with the same id and keeps the first", async () => {
    const store = make();
    const record = makeOptimisationRecord();
    await store.createOptimisation(record);
    await expect(store.createOptimisation({ ...record, status: "done" })).rejects.toMatchObject({ code: "conflict" });
    expect((await store.getOptimisation(record.id))?.status).toBe("running");
  });

  it("saving replaces the whole record (status, candidates, spend); saving an unknown id is not-found", async () => {
    const store = make();
    const record = makeOptimisationRecord();
    await store.createOptimisation(record);
    const candidate: OptimisationCandidate = { ...record.candidates[0]!, key: "1:0", round: 1, versionId: "tv-0000000000000002", parentId: "tv-0000000000000001", status: "failed", error: "no template", train: null, trainByTask: null, failuresRead: ["run-1#1"] };
    const next: OptimisationRecord = { ...record, status: "budget-spent", detail: "Budget exhausted", updatedAt: "2026-12-01T10:05:00.000Z", candidates: [...record.candidates, candidate], spend: { usd: 0.5, tokens: 6000 } };
    await store.saveOptimisation(next);
    expect(await store.getOptimisation(record.id)).toEqual(next);
    await expect(store.saveOptimisation({ ...next, id: "opt-unknown" })).rejects.toMatchObject({ code: "not-found" });
  });

  it("lists newest first, filtered by the template the candidates go into", async () => {
    const store = make();
    await store.createOptimisation(makeOptimisationRecord({ id: "opt-old", createdAt: "2026-12-01T09:00:00.000Z" }));
    await store.createOptimisation(makeOptimisationRecord({ id: "opt-new", createdAt: "2026-12-01T11:00:00.000Z" }));
    const other = makeOptimisationRecord({ id: "opt-other", createdAt: "2026-12-01T10:00:00.000Z" });
    await store.createOptimisation({ ...other, request: { ...other.request, targetTemplateId: "tpl-bbbbbbbbbbbb" } });
    expect((await store.listOptimisations()).map((r) => r.id)).toEqual(["opt-new", "opt-other", "opt-old"]);
    expect((await store.listOptimisations({ targetTemplateId: "tpl-aaaaaaaaaaaa" })).map((r) => r.id)).toEqual(["opt-new", "opt-old"]);
    expect(await store.listOptimisations({ targetTemplateId: "tpl-none" })).toEqual([]);
  });

  it("claims a lease atomically: a second owner is refused (told the holder and expiry) until it is released or expired; renewing keeps it; a save never moves it", async () => {
    const store = make();
    const record = makeOptimisationRecord();
    await store.createOptimisation(record);
    const now = 1_800_000_000_000;
    expect(await store.claimOptimisationLease(record.id, "web:1:a", 15_000, now)).toEqual({ claimed: true, lease: { owner: "web:1:a", expiresAt: now + 15_000 } });
    expect(await store.claimOptimisationLease(record.id, "cli:2:b", 15_000, now + 1_000)).toEqual({ claimed: false, holder: { owner: "web:1:a", expiresAt: now + 15_000 } });
    expect(await store.claimOptimisationLease(record.id, "web:1:a", 15_000, now + 5_000)).toEqual({ claimed: true, lease: { owner: "web:1:a", expiresAt: now + 20_000 } });
    await store.saveOptimisation({ ...record, status: "budget-spent", lease: null });
    expect((await store.getOptimisation(record.id))?.lease).toEqual({ owner: "web:1:a", expiresAt: now + 20_000 });
    expect((await store.listOptimisations())[0]?.lease).toEqual({ owner: "web:1:a", expiresAt: now + 20_000 });
    await store.releaseOptimisationLease(record.id, "cli:2:b");
    expect((await store.claimOptimisationLease(record.id, "cli:2:b", 15_000, now + 19_999)).claimed).toBe(false);
    expect(await store.claimOptimisationLease(record.id, "cli:2:b", 15_000, now + 20_000)).toEqual({ claimed: true, lease: { owner: "cli:2:b", expiresAt: now + 35_000 } });
    await store.releaseOptimisationLease(record.id, "cli:2:b");
    expect((await store.getOptimisation(record.id))?.lease ?? null).toBeNull();
    expect((await store.claimOptimisationLease(record.id, "web:1:a", 15_000, now + 21_000)).claimed).toBe(true);
    await expect(store.claimOptimisationLease("opt-missing", "web:1:a", 15_000, now)).rejects.toMatchObject({ code: "not-found" });
  });

  it("returns copies: changing a record read back changes nothing stored", async () => {
    const store = make();
    const record = makeOptimisationRecord();
    await store.createOptimisation(record);
    const read = (await store.getOptimisation(record.id))!;
    read.candidates[0]!.tokens = 999_999;
    expect((await store.getOptimisation(record.id))!.candidates[0]!.tokens).toBe(1200);
  });
}
