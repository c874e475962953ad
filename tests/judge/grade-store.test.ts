import { afterAll, describe, expect, it } from "vitest";
import type { GradeStore } from "@/lib/db/grade-store";
import { MemoryGradeStore } from "@/lib/db/grade-store-memory";
import { SqliteGradeStore } from "@/lib/db/grade-store-sqlite";
import type { HumanGrade } from "@/lib/domain/judge-grades";

/** The grade store's contract, on both adapters: one grade per run/branch/trial (saving again replaces it), newest first. */
const sqlite = new SqliteGradeStore(":memory:");
// A grade refers to its run (foreign key): the run row must exist.
sqlite.execForTests(`INSERT INTO runs (id, created_at, root_branch_id, title, config) VALUES ('run-1', '2026-12-01T09:00:00.000Z', 'br-1', 't', '{}')`);
afterAll(() => sqlite.close());

const grade = (overrides: Partial<HumanGrade>): HumanGrade => ({
  id: "g1",
  runId: "run-1",
  branchId: "br-1",
  trial: 1,
  taskId: "open-alt-text",
  verdict: "pass",
  criteria: null,
  note: "",
  judgeVerdict: "fail",
  judgeScore: 0.67,
  gradedAt: "2026-12-01T10:00:00.000Z",
  ...overrides,
});

describe.each<[string, GradeStore]>([
  ["memory", new MemoryGradeStore()],
  ["sqlite", sqlite],
])("%s grade store", (_name, store) => {
  it("stores, replaces a trial's grade, keeps per-criterion grades, lists newest first", async () => {
    expect(await store.listGrades()).toEqual([]);
    await store.saveGrade(grade({}));
    await store.saveGrade(grade({ id: "g2", trial: 2, gradedAt: "2026-12-01T10:05:00.000Z", judgeVerdict: "pass", judgeScore: 1 }));
    const replaced = await store.saveGrade(grade({ id: "g3", verdict: "fail", criteria: { "no-preamble": "fail" }, note: "starts with Image of", gradedAt: "2026-12-01T10:10:00.000Z" }));
    expect(replaced).toMatchObject({ trial: 1, verdict: "fail", criteria: { "no-preamble": "fail" }, note: "starts with Image of" });
    const all = await store.listGrades();
    expect(all.map((g) => [g.trial, g.verdict, g.gradedAt])).toEqual([
      [1, "fail", "2026-12-01T10:10:00.000Z"],
      [2, "pass", "2026-12-01T10:05:00.000Z"],
    ]);
  });
});
