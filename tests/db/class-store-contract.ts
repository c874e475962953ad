import { expect, it } from "vitest";
import type { ClassStore } from "@/lib/db/class-store";
import type { ClassRecord, ClassStudentRecord } from "@/lib/domain/class-session";

/** A class record with defaults (open, step 0, version 0). */
export function classFixture(id: string, overrides: Partial<ClassRecord> = {}): ClassRecord {
  return {
    id,
    code: `C${id.toUpperCase().replace(/[^A-Z0-9]/g, "").padEnd(5, "2").slice(0, 5)}`,
    lessonId: "why-reflexion-qa",
    lessonTitle: "Why Reflexion",
    runId: "run-1",
    teacherSecretHash: "a".repeat(64),
    status: "open",
    step: 0,
    revealedSteps: [],
    maxStudents: 60,
    createdBy: null,
    createdAt: "2026-12-06T01:00:00.000Z",
    endsAt: "2026-12-06T02:00:00.000Z",
    endedAt: null,
    version: 0,
    ...overrides,
  };
}

function student(classId: string, id: string, nickname: string, joinedAt = "2026-12-06T01:01:00.000Z"): ClassStudentRecord {
  return { id, classId, nickname, tokenHash: `hash-${id}`, joinedAt };
}

/**
 * The rules every {@link ClassStore} keeps (memory, SQLite, PostgreSQL): classes read back
 * exactly, unique ids and codes, newest first; joins refused when full or the nickname is taken
 * (case- and accent-insensitively); one answer and one reflection per student per step; every
 * write bumps the version; reset clears answers and reflections and hides forks while their
 * branches stay known as class branches. `make` hands out an empty store.
 */
export function classStoreContract(make: () => Promise<ClassStore>): void {
  it("stores a class and reads it back exactly, by id and by code; ids and codes are unique", async () => {
    const store = await make();
    expect(await store.getClass("k1")).toBeNull();
    const record = classFixture("k1", { revealedSteps: [2, 0], createdBy: "user-1" });
    await store.createClass(record);
    expect(await store.getClass("k1")).toEqual(record);
    expect(await store.getClassByCode(record.code)).toEqual(record);
    expect(await store.getClassByCode("ZZZZZZ")).toBeNull();
    await expect(store.createClass(classFixture("k1", { code: "OTHER2" }))).rejects.toMatchObject({ code: "conflict" });
    await expect(store.createClass(classFixture("k2", { code: record.code }))).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/code/) });
    expect(await store.listClasses()).toEqual([record]);
  });

  it("lists classes newest first and counts their students", async () => {
    const store = await make();
    await store.createClass(classFixture("old", { code: "OLD222", createdAt: "2026-12-01T00:00:00.000Z" }));
    await store.createClass(classFixture("new", { code: "NEW222", createdAt: "2026-12-05T00:00:00.000Z" }));
    expect((await store.listClasses()).map((c) => c.id)).toEqual(["new", "old"]);
    expect((await store.listClasses(1)).map((c) => c.id)).toEqual(["new"]);
    await store.addStudent(student("old", "s1", "Ann"), 60);
    await store.addStudent(student("old", "s2", "Bob"), 60);
    expect(await store.countStudents(["old", "new"])).toEqual(new Map([["old", 2]]));
  });

  it("refuses a nickname taken in the class (case and accents aside), and a join past maxStudents; bumps the version only on a join", async () => {
    const store = await make();
    await store.createClass(classFixture("k1"));
    await store.createClass(classFixture("k2", { code: "KTWO22" }));
    expect(await store.addStudent(student("k1", "s1", "José"), 2)).toEqual({ added: true });
    expect(await store.addStudent(student("k1", "s2", "  jose".trim()), 2)).toEqual({ added: false, reason: "nickname-taken" });
    expect(await store.addStudent(student("k2", "s3", "José"), 2)).toEqual({ added: true });
    expect(await store.addStudent(student("k1", "s4", "Kim", "2026-12-06T01:02:00.000Z"), 2)).toEqual({ added: true });
    expect(await store.addStudent(student("k1", "s5", "Lee"), 2)).toEqual({ added: false, reason: "full" });
    expect((await store.listStudents("k1")).map((s) => s.nickname)).toEqual(["José", "Kim"]);
    expect((await store.getClass("k1"))?.version).toBe(2);
    expect(await store.findStudentByToken("k1", "hash-s4")).toEqual(student("k1", "s4", "Kim", "2026-12-06T01:02:00.000Z"));
    expect(await store.findStudentByToken("k2", "hash-s4")).toBeNull();
    await expect(store.addStudent(student("nope", "s9", "X"), 2)).rejects.toMatchObject({ code: "not-found" });
  });

  it("keeps one answer and one reflection per student per step (saving again replaces), each write a new version", async () => {
    const store = await make();
    await store.createClass(classFixture("k1"));
    await store.saveAnswer({ classId: "k1", studentId: "s1", step: 1, choiceId: "pass", answeredAt: "2026-12-06T01:05:00.000Z" });
    await store.saveAnswer({ classId: "k1", studentId: "s2", step: 1, choiceId: "fail", answeredAt: "2026-12-06T01:05:01.000Z" });
    await store.saveAnswer({ classId: "k1", studentId: "s1", step: 1, choiceId: "fail", answeredAt: "2026-12-06T01:05:02.000Z" });
    await store.saveAnswer({ classId: "k1", studentId: "s1", step: 2, choiceId: "never", answeredAt: "2026-12-06T01:06:00.000Z" });
    const step1 = await store.listAnswers("k1", 1);
    expect(step1.map((a) => [a.studentId, a.choiceId])).toEqual([
      ["s2", "fail"],
      ["s1", "fail"],
    ]);
    expect(await store.listAnswers("k1")).toHaveLength(3);
    await store.saveReflection({ classId: "k1", studentId: "s1", step: 3, text: "first", submittedAt: "2026-12-06T01:07:00.000Z" });
    await store.saveReflection({ classId: "k1", studentId: "s1", step: 3, text: "second", submittedAt: "2026-12-06T01:07:30.000Z" });
    expect((await store.listReflections("k1", 3)).map((r) => r.text)).toEqual(["second"]);
    expect(await store.listReflections("k1", 4)).toEqual([]);
    expect((await store.getClass("k1"))?.version).toBe(6);
    expect(await store.touch("k1")).toBe(7);
    expect(await store.touch("nope")).toBeNull();
  });

  it("updates step, reveals and status with a version bump; an unknown class is not found", async () => {
    const store = await make();
    await store.createClass(classFixture("k1"));
    const moved = await store.updateClass("k1", { step: 3, revealedSteps: [1, 3] });
    expect(moved).toMatchObject({ step: 3, revealedSteps: [1, 3], version: 1, status: "open" });
    const ended = await store.updateClass("k1", { status: "ended", endedAt: "2026-12-06T01:30:00.000Z" });
    expect(ended).toMatchObject({ status: "ended", endedAt: "2026-12-06T01:30:00.000Z", step: 3, version: 2 });
    expect(await store.getClass("k1")).toEqual(ended);
    await expect(store.updateClass("nope", { step: 1 })).rejects.toMatchObject({ code: "not-found" });
  });

  it("records forks; reset clears answers, reflections and forks, back to step 0, while the branches stay class branches of the run", async () => {
    const store = await make();
    await store.createClass(classFixture("k1", { runId: "run-9" }));
    await store.createClass(classFixture("k2", { code: "KTWO22", runId: "run-8" }));
    await store.updateClass("k1", { step: 4, revealedSteps: [1] });
    await store.saveAnswer({ classId: "k1", studentId: "s1", step: 1, choiceId: "pass", answeredAt: "2026-12-06T01:05:00.000Z" });
    await store.saveReflection({ classId: "k1", studentId: "s1", step: 4, text: "mine", submittedAt: "2026-12-06T01:07:00.000Z" });
    const fork = { classId: "k1", step: 4, groupId: "g-s1", text: "mine", branchId: "br-a", trial: 2, createdAt: "2026-12-06T01:08:00.000Z" };
    await store.addForks([fork, { ...fork, groupId: "g-s2", text: "theirs", branchId: "br-b", createdAt: "2026-12-06T01:08:01.000Z" }]);
    await store.addForks([{ ...fork, classId: "k2", branchId: "br-c" }]);
    expect((await store.listForks("k1")).map((f) => f.branchId)).toEqual(["br-a", "br-b"]);
    expect(await store.listForks("k1")).toContainEqual(fork);
    expect(await store.listClassBranchIds("run-9")).toEqual(new Set(["br-a", "br-b"]));
    const before = (await store.getClass("k1"))?.version ?? 0;
    const reset = await store.resetClass("k1");
    expect(reset).toMatchObject({ step: 0, revealedSteps: [], status: "open", version: before + 1 });
    expect(await store.listAnswers("k1")).toEqual([]);
    expect(await store.listReflections("k1")).toEqual([]);
    expect(await store.listForks("k1")).toEqual([]);
    expect(await store.listClassBranchIds("run-9")).toEqual(new Set(["br-a", "br-b"]));
    expect((await store.listForks("k2")).map((f) => f.branchId)).toEqual(["br-c"]);
    await expect(store.resetClass("nope")).rejects.toMatchObject({ code: "not-found" });
  });
}
