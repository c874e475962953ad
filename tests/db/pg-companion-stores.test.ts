import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgGradeStore, PgMemoryStoreRepository, PgPriceStore } from "@/lib/db/pg/pg-small-stores";
import { PgTemplateStore } from "@/lib/db/pg/pg-templates";
import type { HumanGrade } from "@/lib/domain/judge-grades";
import { makeRunConfig } from "../helpers/run-config";
import { templateStoreContract } from "../templates/template-store-contract";
import { sharedPglite } from "./pg-test-stores";

// The stores beside the run store, on PostgreSQL (PGlite): the template library's own contract,
// and the rules SQLite's triggers and indexes enforce (issue 17).
const pglite = sharedPglite();
beforeAll(() => pglite.open(), 120_000);
afterAll(() => pglite.close());

/** A store on a freshly emptied database (emptied when it is first used). */
function fresh<T>(make: (db: ReturnType<typeof pglite.connection>["db"], ready: () => Promise<void>) => T): T {
  let emptied: Promise<void> | null = null;
  return make(pglite.connection().db, () => (emptied ??= pglite.makeStore().then(() => undefined)));
}

describe("PgTemplateStore (PGlite)", () => {
  templateStoreContract(() => fresh((db, ready) => new PgTemplateStore(db, ready)));

  it("refuses an UPDATE or DELETE of a version row (trigger)", async () => {
    const store = fresh((db, ready) => new PgTemplateStore(db, ready));
    await store.createTemplate({ id: "t1", name: "T", family: "qa", role: "reflector", strategy: null, builtIn: false, source: null, labels: {}, createdAt: "2026-01-01T00:00:00.000Z" });
    await store.addVersion({ templateId: "t1", parentId: null, text: "v1", message: "m", builtIn: false });
    const db = pglite.connection().db;
    await expect(db.execute(sql`UPDATE template_versions SET text = 'changed'`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/immutable/) } });
    await expect(db.execute(sql`DELETE FROM template_versions`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/immutable/) } });
    expect((await store.listVersions("t1")).map((v) => v.text)).toEqual(["v1"]);
  });
});

describe("PgPriceStore (PGlite)", () => {
  it("adds rows once (seeding is idempotent), lists oldest first, and refuses changes to history", async () => {
    const store = fresh((db, ready) => new PgPriceStore(db, ready));
    const row = { id: "pr-1", provider: "openai", model: "gpt-4o", inputUsdPerMTok: 2.5, outputUsdPerMTok: 10, cachedInputUsdPerMTok: null, enteredAt: "2026-02-01T00:00:00.000Z", note: "price page" };
    expect(await store.addPrice(row)).toBe(true);
    expect(await store.addPrice({ ...row, inputUsdPerMTok: 99 })).toBe(false);
    await store.addPrice({ ...row, id: "pr-0", enteredAt: "2026-01-01T00:00:00.000Z", cachedInputUsdPerMTok: 1.25 });
    expect((await store.listPrices()).map((p) => [p.id, p.inputUsdPerMTok, p.cachedInputUsdPerMTok])).toEqual([
      ["pr-0", 2.5, 1.25],
      ["pr-1", 2.5, null],
    ]);
    await expect(pglite.connection().db.execute(sql`UPDATE prices SET note = 'x'`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/history/) } });
    await expect(pglite.connection().db.execute(sql`DELETE FROM prices`)).rejects.toMatchObject({ cause: { message: expect.stringMatching(/history/) } });
  });
});

describe("PgGradeStore (PGlite)", () => {
  it("one grade per run/branch/trial, saving again replaces it; per-criterion grades kept; newest first", async () => {
    const grades = fresh((db, ready) => new PgGradeStore(db, ready));
    const runs = await pglite.makeStore();
    await grades.listGrades(); // empties the database before the run is created
    const run = await runs.createRun({ config: makeRunConfig(), title: "open task" });
    const grade = (overrides: Partial<HumanGrade>): HumanGrade => ({
      id: "g1", runId: run.id, branchId: run.rootBranchId, trial: 1, taskId: "open-alt-text", verdict: "pass", criteria: null, note: "",
      judgeVerdict: "fail", judgeScore: 0.67, gradedAt: "2026-12-01T10:00:00.000Z", ...overrides,
    });
    await grades.saveGrade(grade({}));
    await grades.saveGrade(grade({ id: "g2", trial: 2, gradedAt: "2026-12-01T10:05:00.000Z" }));
    const replaced = await grades.saveGrade(grade({ id: "g3", verdict: "fail", criteria: { "no-preamble": "fail" }, note: "starts with Image of", gradedAt: "2026-12-01T10:10:00.000Z" }));
    expect(replaced).toMatchObject({ trial: 1, verdict: "fail", criteria: { "no-preamble": "fail" } });
    expect((await grades.listGrades()).map((g) => [g.trial, g.verdict, g.criteria])).toEqual([
      [1, "fail", { "no-preamble": "fail" }],
      [2, "pass", null],
    ]);
  });
});

describe("PgMemoryStoreRepository (PGlite)", () => {
  it("keeps retention, skips an entry twice, returns a task's unexpired entries newest first, deletes expired ones", async () => {
    const repo = fresh((db, ready) => new PgMemoryStoreRepository(db, ready));
    await repo.putStore({ name: "lab", retentionDays: 30, createdAt: "2026-01-01T00:00:00.000Z" });
    await repo.putStore({ name: "lab", retentionDays: 7, createdAt: "2026-06-01T00:00:00.000Z" });
    expect(await repo.retentionOf("lab")).toBe(7);
    expect(await repo.retentionOf("none")).toBeNull();
    const entry = (id: string, createdAt: string, expiresAt: string, taskId = "t1") => ({
      id, store: "lab", environment: "qa", taskId, text: `reflection ${id}`, source: { runId: "r", branchId: "b", trial: 1, eventId: `ev-${id}` }, createdAt, expiresAt,
    });
    expect(await repo.addEntries([entry("a", "2026-01-02T00:00:00.000Z", "2026-01-09T00:00:00.000Z"), entry("b", "2026-01-03T00:00:00.000Z", "2026-02-01T00:00:00.000Z"), entry("c", "2026-01-03T00:00:00.000Z", "2026-02-01T00:00:00.000Z", "t2")])).toBe(3);
    expect(await repo.addEntries([entry("a", "2026-01-02T00:00:00.000Z", "2026-01-09T00:00:00.000Z")])).toBe(0);
    const now = "2026-01-05T00:00:00.000Z";
    expect((await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now, limit: 10 })).map((e) => e.id)).toEqual(["b", "a"]);
    expect(await repo.listStores(now)).toEqual([{ name: "lab", retentionDays: 7, createdAt: "2026-01-01T00:00:00.000Z", entryCount: 3, taskCount: 2 }]);
    expect(await repo.deleteExpired("2026-01-10T00:00:00.000Z")).toBe(1);
    expect((await repo.entriesFor({ store: "lab", environment: "qa", taskId: "t1", now, limit: 10 })).map((e) => e.id)).toEqual(["b"]);
  });
});
