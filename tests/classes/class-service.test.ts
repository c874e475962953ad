import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryClassStore } from "@/lib/db/class-store-memory";
import { MemoryRunStore } from "@/lib/db/memory-store";
import type { ClassStudentView } from "@/lib/domain/class-session";
import { asBranchId } from "@/lib/domain/ids";
import { codeDemoScriptBook } from "@/lib/environments/code/demo-script";
import { householdDemoScriptBook } from "@/lib/environments/household/demo-script";
import { qaDemoScriptBook } from "@/lib/environments/qa/demo-script";
import { derivePrediction } from "@/lib/lessons/predictions";
import { createModelPort } from "@/lib/llm/model-port";
import { createServerContext, type ServerContext } from "@/lib/server/app-context";
import { ClassService } from "@/lib/server/class-service";
import { LessonService } from "@/lib/server/lesson-service";
import { demoMockModel } from "../helpers/mock-model";

/**
 * Class sessions through the real service on the demo model (built-in lesson why-reflexion-qa,
 * task qa-builtin-01): joins and their limits, answers hidden until the reveal from the student
 * and projector views, the histogram and score, grouped reflections, forks on their own branches
 * with outcomes and matched key facts, end → 410, reset, expiry.
 */

const LESSONS_DIR = path.resolve("lessons");
const LESSON = "why-reflexion-qa";
/** why-reflexion-qa's steps used here (0-based): a next-action question, an evaluator-verdict question, the practice step. */
const NEXT_ACTION = 2;
const VERDICT = 3;
const PRACTICE = 4;

const contexts: ServerContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.workers.stop();
});

function setup(start = new Date("2026-12-06T09:00:00.000Z")) {
  const mock = demoMockModel([qaDemoScriptBook, householdDemoScriptBook, codeDemoScriptBook]);
  const context = createServerContext({ store: new MemoryRunStore(), model: createModelPort({ resolveModel: () => mock, maxRetries: 0 }) });
  contexts.push(context);
  const clock = { now: start };
  const lessons = new LessonService(context, { dir: LESSONS_DIR });
  const classes = new ClassService({ store: new MemoryClassStore(), runs: context.service, lessons, bus: context.bus, now: () => clock.now, pollMs: 20 });
  return { context, classes, lessons, clock };
}

async function startedClass(setupResult: ReturnType<typeof setup>, minutes = 60) {
  const { context, classes } = setupResult;
  const created = await classes.create({ lessonId: LESSON, minutes }, "teacher-1");
  const run = await context.service.getRun(created.class.runId);
  await context.workers.untilSettled(run.rootBranchId);
  const teacher = { secret: created.teacherSecret };
  return { created, teacher, classId: created.class.id, code: created.class.code, runId: run.id };
}

async function joinAll(classes: ClassService, code: string, nicknames: readonly string[]) {
  const tokens: Record<string, string> = {};
  for (const nickname of nicknames) tokens[nickname] = (await classes.join({ code, nickname })).studentToken;
  return tokens;
}

describe("ClassService", () => {
  it("starts a class on the lesson's run, with a join code, a join path and a secret shown once", async () => {
    const s = setup();
    const { created, classId, code } = await startedClass(s);
    expect(code).toMatch(/^[A-HJ-NP-TW-Z2-9]{6}$/);
    expect(created.joinPath).toBe(`/join/${code}`);
    expect(created.teacherSecret.length).toBeGreaterThanOrEqual(40);
    expect(created.class).toMatchObject({ id: classId, status: "open", step: 0, lesson: { id: LESSON }, students: [] });
    expect(created.class.endsAt).toBe("2026-12-06T10:00:00.000Z");
    expect(JSON.stringify(await s.classes.list())).not.toContain(created.teacherSecret);
    expect(await s.classes.byCode(code.toLowerCase())).toMatchObject({ classId, status: "open" });
    await expect(s.classes.byCode("ZZZZZZ")).rejects.toMatchObject({ code: "not-found", message: expect.stringMatching(/No class with code ZZZZZZ: check the code on the projector/) });
    await expect(s.classes.teacherView(classId, { secret: "wrong" }, { projector: false })).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/Only the teacher/) });
    await expect(s.classes.teacherView(classId, { secret: null }, { projector: true })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("joins students with unique nicknames, refuses bad ones, and refuses a full class", async () => {
    const s = setup();
    const { classId, code, teacher } = await startedClass(s);
    const ann = await s.classes.join({ code, nickname: "  Ann  " });
    expect(ann).toMatchObject({ classId, nickname: "Ann" });
    await expect(s.classes.join({ code, nickname: "ANN" })).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/already called "ANN"/) });
    await expect(s.classes.join({ code, nickname: "   " })).rejects.toMatchObject({ code: "invalid-input" });
    await expect(s.classes.join({ code, nickname: "x".repeat(25) })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/at most 24/) });
    await expect(s.classes.join({ code, nickname: "Bob\u0007" })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/control/) });
    await expect(s.classes.join({ code, nickname: "Bo\u200Bb" })).rejects.toMatchObject({ code: "invalid-input" });
    const view = await s.classes.teacherView(classId, teacher, { projector: false });
    expect(view.students.map((student) => student.nickname)).toEqual(["Ann"]);
    expect((await s.classes.studentView(classId, ann.studentToken)).nickname).toBe("Ann");
    await expect(s.classes.studentView(classId, "not-a-token")).rejects.toMatchObject({ code: "forbidden" });
    await expect(s.classes.studentView(classId, null)).rejects.toMatchObject({ code: "forbidden" });

    // A full class: the store's limit, as the service words it.
    const small = new ClassService({ store: new MemoryClassStore(), runs: s.context.service, lessons: s.lessons, bus: s.context.bus, now: () => s.clock.now });
    const other = await small.create({ lessonId: LESSON, minutes: 30 }, null);
    const record = other.class;
    for (let index = 0; index < 60; index += 1) await small.join({ code: record.code, nickname: `s${index}` });
    await expect(small.join({ code: record.code, nickname: "late" })).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/full \(60 students\)/) });
  });

  it("hides answers until the reveal from students and the projector, then shows the histogram, the right answer and the score", async () => {
    const s = setup();
    const { classId, code, teacher, runId } = await startedClass(s);
    const tokens = await joinAll(s.classes, code, ["Ann", "Bob", "Cleo"]);
    await s.classes.setStep(classId, teacher, NEXT_ACTION);
    const studentBefore = await s.classes.studentView(classId, tokens.Ann!);
    const choices = studentBefore.step.question?.choices.map((choice) => choice.id) ?? [];
    expect(choices.length).toBeGreaterThanOrEqual(3);
    const { events } = await s.context.service.events(runId);
    const { lesson } = await s.lessons.get(LESSON);
    const question = lesson.steps[NEXT_ACTION]?.question;
    if (!question) throw new Error("the lesson's step 3 asks a question");
    const right = derivePrediction(events, question).answer;
    const wrong = choices.find((id) => id !== right) ?? "";

    await s.classes.answer(classId, tokens.Ann!, { step: NEXT_ACTION, choiceId: wrong });
    await s.classes.answer(classId, tokens.Ann!, { step: NEXT_ACTION, choiceId: right }); // changed before the reveal
    await s.classes.answer(classId, tokens.Bob!, { step: NEXT_ACTION, choiceId: wrong });
    await expect(s.classes.answer(classId, tokens.Cleo!, { step: VERDICT, choiceId: "pass" })).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/The teacher has moved on/) });
    await expect(s.classes.answer(classId, tokens.Cleo!, { step: NEXT_ACTION, choiceId: "nope" })).rejects.toMatchObject({ code: "invalid-input" });

    const explanation = question.explanation.slice(0, 40);
    const bob: ClassStudentView = await s.classes.studentView(classId, tokens.Bob!);
    expect(bob).toMatchObject({ myAnswer: wrong, revealed: false, histogram: null, answerId: null, explanation: null, fact: null });
    expect(JSON.stringify(bob)).not.toContain("Ann");
    expect(JSON.stringify(bob)).not.toContain(explanation);
    const projector = await s.classes.teacherView(classId, teacher, { projector: true });
    expect(projector.current.answers).toEqual({ count: 2, byChoice: null, revealed: false, answerId: null, explanation: null, fact: null });
    for (const name of ["Ann", "Bob", "Cleo"]) expect(JSON.stringify(projector)).not.toContain(name);
    expect(JSON.stringify(projector)).not.toContain(explanation);
    const teacherView = await s.classes.teacherView(classId, teacher, { projector: false });
    expect(teacherView.current.answers).toMatchObject({ count: 2, byChoice: null, answerId: null });
    expect(teacherView.students.map((student) => student.nickname)).toEqual(["Ann", "Bob", "Cleo"]);

    const revealed = await s.classes.reveal(classId, teacher, NEXT_ACTION);
    const expected = Object.fromEntries(choices.map((id) => [id, id === right ? 1 : id === wrong ? 1 : 0]));
    expect(revealed.current.answers).toMatchObject({ count: 2, byChoice: expected, revealed: true, answerId: right, explanation: question.explanation });
    expect(revealed.steps[NEXT_ACTION]!.cursor).toBeGreaterThan(teacherView.steps[NEXT_ACTION]!.cursor);
    const bobAfter = await s.classes.studentView(classId, tokens.Bob!);
    expect(bobAfter).toMatchObject({ revealed: true, histogram: expected, answerId: right, score: { correct: 0, answered: 1 } });
    await expect(s.classes.answer(classId, tokens.Cleo!, { step: NEXT_ACTION, choiceId: right })).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/revealed/) });
    expect(revealed.score).toEqual([
      { nickname: "Ann", correct: 1, answered: 1 },
      { nickname: "Cleo", correct: 0, answered: 0 },
      { nickname: "Bob", correct: 0, answered: 1 },
    ]);
    expect((await s.classes.teacherView(classId, teacher, { projector: true })).score.map((row) => row.nickname)).toEqual([null, null, null]);
    await expect(s.classes.reveal(classId, teacher, 0)).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("groups near-duplicate reflections, anonymised on the projector, and runs forks on their own branches with outcomes and matched key facts", async () => {
    const s = setup();
    const { classId, code, teacher, runId } = await startedClass(s);
    const tokens = await joinAll(s.classes, code, ["Ann", "Bob", "Cleo"]);
    await s.classes.setStep(classId, teacher, PRACTICE);
    const helpful = "I answered with the town instead of the river. Next time search Dunmere and give its river.";
    // A second apart, so submission order (the grouping's order) is Ann, Bob, Cleo.
    const tick = () => (s.clock.now = new Date(s.clock.now.getTime() + 1_000));
    await s.classes.reflect(classId, tokens.Ann!, { step: PRACTICE, text: helpful });
    tick();
    await s.classes.reflect(classId, tokens.Bob!, { step: PRACTICE, text: "I answered with the town instead of the river! Next time, search Dunmere and give its river" });
    tick();
    await s.classes.reflect(classId, tokens.Cleo!, { step: PRACTICE, text: "I should be more careful next time." });
    expect((await s.classes.studentView(classId, tokens.Bob!)).myReflection).toMatch(/river!/);

    const teacherView = await s.classes.teacherView(classId, teacher, { projector: false });
    const groups = teacherView.current.reflections;
    expect(groups.map((group) => [group.members, group.nicknames])).toEqual([
      [2, ["Ann", "Bob"]],
      [1, ["Cleo"]],
    ]);
    expect(groups[0]!.text).toBe(helpful);
    const projector = await s.classes.teacherView(classId, teacher, { projector: true });
    expect(projector.current.reflections.map((group) => group.nicknames)).toEqual([null, null]);
    expect(projector.current.reflections.map((group) => group.id)).toEqual(groups.map((group) => group.id));

    const { forks } = await s.classes.runForks(classId, teacher, { step: PRACTICE, groupIds: groups.map((group) => group.id) });
    expect(forks).toHaveLength(2);
    expect(new Set(forks.map((fork) => fork.branchId)).size).toBe(2);
    const run = await s.context.service.getRun(runId);
    for (const fork of forks) {
      expect(fork.branchId).not.toBe(run.rootBranchId);
      expect(fork.trial).toBe(2);
      await s.context.workers.untilSettled(asBranchId(fork.branchId));
    }
    const settled = (await s.classes.teacherView(classId, teacher, { projector: false })).forks;
    const byText = new Map(settled.map((fork) => [fork.text, fork]));
    expect(byText.get(helpful)).toMatchObject({ status: "succeeded", matchedFacts: ["the town to search next: Dunmere", "that the question asks for a river, not the town"] });
    expect(byText.get("I should be more careful next time.")).toMatchObject({ status: "failed", matchedFacts: [] });
    // Each fork's branch carries its own reflection.
    const { events } = await s.context.service.events(runId, 0, byText.get(helpful)!.branchId);
    expect(events.some((event) => event.type === "reflection-edit" && event.data.newText === helpful)).toBe(true);
    expect((await s.classes.studentView(classId, tokens.Cleo!)).forks).toHaveLength(2);
    await expect(s.classes.reflect(classId, tokens.Cleo!, { step: PRACTICE, text: "changed my mind" })).rejects.toMatchObject({ code: "conflict" });
    await expect(s.classes.runForks(classId, teacher, { step: PRACTICE, groupIds: [groups[0]!.id] })).rejects.toMatchObject({ code: "conflict" });
    await expect(s.classes.runForks(classId, { secret: "nope" }, { step: PRACTICE, groupIds: [groups[0]!.id] })).rejects.toMatchObject({ code: "forbidden" });
    expect(await s.classes.classBranchIds(runId)).toEqual(new Set(forks.map((fork) => fork.branchId)));
  });

  it("an ended class refuses every write with 410 and stays readable; reset clears answers, reflections and forks", async () => {
    const s = setup();
    const { classId, code, teacher } = await startedClass(s);
    const tokens = await joinAll(s.classes, code, ["Ann"]);
    await s.classes.setStep(classId, teacher, VERDICT);
    await s.classes.answer(classId, tokens.Ann!, { step: VERDICT, choiceId: "fail" });
    const reset = await s.classes.reset(classId, teacher);
    expect(reset).toMatchObject({ step: 0, status: "open", current: { answers: { count: 0 } } });
    expect(reset.students).toHaveLength(1);
    await s.classes.setStep(classId, teacher, VERDICT);
    expect((await s.classes.studentView(classId, tokens.Ann!)).myAnswer).toBeNull();

    const ended = await s.classes.end(classId, teacher);
    expect(ended.status).toBe("ended");
    const gone = { code: "gone", message: expect.stringMatching(/This class has ended/) };
    await expect(s.classes.answer(classId, tokens.Ann!, { step: VERDICT, choiceId: "fail" })).rejects.toMatchObject(gone);
    await expect(s.classes.join({ code, nickname: "Late" })).rejects.toMatchObject(gone);
    await expect(s.classes.setStep(classId, teacher, 1)).rejects.toMatchObject(gone);
    await expect(s.classes.reset(classId, teacher)).rejects.toMatchObject(gone);
    expect((await s.classes.studentView(classId, tokens.Ann!)).status).toBe("ended");
    expect((await s.classes.list()).classes[0]).toMatchObject({ id: classId, status: "ended", students: 1 });
  });

  it("ends by itself at endsAt", async () => {
    const s = setup();
    const { classId, code, teacher } = await startedClass(s, 5);
    await s.classes.join({ code, nickname: "Ann" });
    s.clock.now = new Date(s.clock.now.getTime() + 5 * 60_000);
    await expect(s.classes.join({ code, nickname: "Bob" })).rejects.toMatchObject({ code: "gone" });
    const view = await s.classes.teacherView(classId, teacher, { projector: false });
    expect(view.status).toBe("ended");
  });

  it("publishes each change's version to the hub", async () => {
    const s = setup();
    const { classId, code } = await startedClass(s);
    const seen: number[] = [];
    const stop = s.classes.hub.subscribe(classId, (version) => seen.push(version));
    await s.classes.join({ code, nickname: "Ann" });
    await s.classes.join({ code, nickname: "Bob" });
    stop();
    expect(seen).toEqual([1, 2]);
    expect(await s.classes.version(classId)).toBe(2);
  });
});
