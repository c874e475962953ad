import { expect, it } from "vitest";
import type { GradeStore } from "@/lib/db/grade-store";
import type { HumanGrade } from "@/lib/domain/judge-grades";

/** A store and two branches of existing runs a grade may refer to (`run_id` is a foreign key in SQL). */
export interface GradeStoreFixture {
  store: GradeStore;
  branches: readonly [{ runId: string; branchId: string }, { runId: string; branchId: string }];
}

/**
 * The rules every {@link GradeStore} keeps (memory, SQLite, PostgreSQL): one grade per run,
 * branch and trial — saving again replaces it and keeps the first grade's id — per-criterion
 * grades kept, newest first. `make` hands out an empty store.
 */
export function gradeStoreContract(make: () => Promise<GradeStoreFixture>): void {
  const grade = (where: { runId: string; branchId: string }, overrides: Partial<HumanGrade> = {}): HumanGrade => ({
    id: "g1",
    ...where,
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

  it("starts empty, stores a grade and reads it back exactly (with and without per-criterion grades)", async () => {
    const { store, branches } = await make();
    expect(await store.listGrades()).toEqual([]);
    const plain = grade(branches[0]);
    const detailed = grade(branches[0], { id: "g2", trial: 2, criteria: { "no-preamble": "fail", concise: "pass" }, note: "starts with Image of", gradedAt: "2026-12-01T09:00:00.000Z" });
    expect(await store.saveGrade(plain)).toEqual(plain);
    expect(await store.saveGrade(detailed)).toEqual(detailed);
    expect(await store.listGrades()).toEqual([plain, detailed]);
  });

  it("saving a trial's grade again replaces it, keeps the first grade's id and returns what is stored", async () => {
    const { store, branches } = await make();
    await store.saveGrade(grade(branches[0]));
    const again = grade(branches[0], { id: "g9", verdict: "fail", criteria: { "no-preamble": "fail" }, note: "second look", judgeScore: 0.5, gradedAt: "2026-12-01T10:10:00.000Z" });
    const stored = await store.saveGrade(again);
    expect(stored).toEqual({ ...again, id: "g1" });
    expect(await store.listGrades()).toEqual([stored]);
  });

  it("grades the same trial number of another branch or run, and another trial, separately", async () => {
    const { store, branches } = await make();
    await store.saveGrade(grade(branches[0]));
    await store.saveGrade(grade(branches[1], { id: "g2", verdict: "fail" }));
    await store.saveGrade(grade(branches[0], { id: "g3", trial: 2 }));
    const listed = await store.listGrades();
    expect(listed.map((g) => [g.id, g.runId, g.branchId, g.trial, g.verdict]).sort()).toEqual(
      [
        ["g1", branches[0].runId, branches[0].branchId, 1, "pass"],
        ["g2", branches[1].runId, branches[1].branchId, 1, "fail"],
        ["g3", branches[0].runId, branches[0].branchId, 2, "pass"],
      ].sort(),
    );
  });

  it("lists newest gradedAt first, then by id", async () => {
    const { store, branches } = await make();
    await store.saveGrade(grade(branches[0], { id: "g-b", trial: 1, gradedAt: "2026-12-01T10:00:00.000Z" }));
    await store.saveGrade(grade(branches[0], { id: "g-c", trial: 2, gradedAt: "2026-12-02T08:00:00.000Z" }));
    await store.saveGrade(grade(branches[0], { id: "g-a", trial: 3, gradedAt: "2026-12-01T10:00:00.000Z" }));
    await store.saveGrade(grade(branches[1], { id: "g-d", trial: 1, gradedAt: "2026-11-30T23:59:59.000Z" }));
    expect((await store.listGrades()).map((g) => g.id)).toEqual(["g-c", "g-a", "g-b", "g-d"]);
  });

  it("hands out copies: changing a returned grade's criteria does not change the store", async () => {
    const { store, branches } = await make();
    const saved = await store.saveGrade(grade(branches[0], { criteria: { concise: "pass" } }));
    if (saved.criteria) saved.criteria.concise = "fail";
    const [listed] = await store.listGrades();
    if (listed?.criteria) listed.criteria.extra = "fail";
    expect((await store.listGrades())[0]?.criteria).toEqual({ concise: "pass" });
  });
}
