import { classScore, groupReflections, histogram } from "@/lib/domain/class-rules";
import { joinPathFor, type ClassAnswerRecord, type ClassFork, type ClassRecord, type ClassReflectionRecord, type ClassStep, type ClassStudentRecord, type ClassStudentView, type ClassTeacherView } from "@/lib/domain/class-session";
import type { ResolvedClassStep } from "./class-steps";

/**
 * The class views (lib/domain/class-session.ts) assembled from stored records and the resolved
 * steps. Pure. The rules that keep a class honest live here: the histogram and the right answer
 * only after the reveal; nicknames never on the projector, and a student sees no nickname but
 * their own.
 */

/** Everything a view is made of, read by the service. */
export interface ClassViewInput {
  record: ClassRecord;
  steps: readonly ResolvedClassStep[];
  students: readonly ClassStudentRecord[];
  answers: readonly ClassAnswerRecord[];
  reflections: readonly ClassReflectionRecord[];
  forks: readonly ClassFork[];
}

/** Revealed steps' right answers (step index → choice id): what the score counts. */
function answerKey(input: ClassViewInput): Map<number, string> {
  const key = new Map<number, string>();
  for (const index of input.record.revealedSteps) {
    const answer = input.steps[index]?.key?.answerId;
    if (answer !== undefined) key.set(index, answer);
  }
  return key;
}

function stepView(input: ClassViewInput, index: number): ClassStep | null {
  const step = input.steps[index];
  if (!step) return null;
  return input.record.revealedSteps.includes(index) ? step.after : step.before;
}

/** The reveal's fields of `index`: the right choice, explanation and fact once revealed, else nulls. */
function revealOf(input: ClassViewInput, index: number): { revealed: boolean; answerId: string | null; explanation: string | null; fact: string | null } {
  const key = input.steps[index]?.key ?? null;
  const revealed = input.record.revealedSteps.includes(index) && key !== null;
  return revealed && key ? { revealed, answerId: key.answerId, explanation: key.explanation, fact: key.fact } : { revealed, answerId: null, explanation: null, fact: null };
}

/**
 * `ClassTeacherView`; with `projector`, every nickname (students, reflection groups, score) is
 * null. Before the reveal only the count of answers shows, never how they split.
 */
export function teacherView(input: ClassViewInput, options: { projector: boolean; studentOrigins?: readonly string[] }): ClassTeacherView {
  const { record } = input;
  const hide = options.projector;
  const nicknames = new Map(input.students.map((student) => [student.id, student.nickname]));
  const current = record.step;
  const choices = input.steps[current]?.before.question?.choices.map((choice) => choice.id) ?? [];
  const currentAnswers = input.answers.filter((answer) => answer.step === current);
  const reveal = revealOf(input, current);
  const groups = groupReflections(
    input.reflections
      .filter((reflection) => reflection.step === current)
      .map((reflection) => ({ studentId: reflection.studentId, nickname: hide ? null : (nicknames.get(reflection.studentId) ?? null), text: reflection.text, submittedAt: reflection.submittedAt })),
  );
  return {
    id: record.id,
    code: record.code,
    joinPath: joinPathFor(record.code),
    studentOrigins: [...(options.studentOrigins ?? [])],
    lesson: { id: record.lessonId, title: record.lessonTitle },
    runId: record.runId,
    status: record.status,
    endsAt: record.endsAt,
    step: current,
    steps: input.steps.map((_, index) => stepView(input, index)).filter((step): step is ClassStep => step !== null),
    students: input.students.map((student) => ({ id: student.id, nickname: hide ? null : student.nickname })),
    version: record.version,
    current: {
      answers: { count: currentAnswers.length, byChoice: reveal.revealed ? histogram(choices, currentAnswers) : null, ...reveal },
      reflections: hide ? groups.map((group) => ({ ...group, nicknames: null })) : groups,
    },
    forks: [...input.forks],
    score: classScore(
      input.students.map((student) => student.id),
      input.answers,
      answerKey(input),
    ).map((score) => ({ nickname: hide ? null : (nicknames.get(score.studentId) ?? null), correct: score.correct, answered: score.answered })),
  };
}

/**
 * `ClassStudentView` of `studentId`: the current step, their own answer and reflection, the
 * histogram and right answer only after the reveal, the forks once run, their own score.
 * @throws Error when the class has no step at its current index (a lesson file shortened under a running class).
 */
export function studentView(input: ClassViewInput, student: ClassStudentRecord): ClassStudentView {
  const { record } = input;
  const current = record.step;
  const step = stepView(input, current);
  if (!step) throw new Error(`Class ${record.id} is at step ${current + 1}, which its lesson no longer has.`);
  const mine = input.answers.find((answer) => answer.step === current && answer.studentId === student.id);
  const reveal = revealOf(input, current);
  const choices = step.question?.choices.map((choice) => choice.id) ?? [];
  const score = classScore([student.id], input.answers, answerKey(input))[0] ?? { correct: 0, answered: 0 };
  return {
    classId: record.id,
    nickname: student.nickname,
    status: record.status,
    step,
    myAnswer: mine?.choiceId ?? null,
    revealed: reveal.revealed,
    histogram: reveal.revealed ? histogram(choices, input.answers.filter((answer) => answer.step === current)) : null,
    answerId: reveal.answerId,
    explanation: reveal.explanation,
    fact: reveal.fact,
    myReflection: input.reflections.find((reflection) => reflection.step === current && reflection.studentId === student.id)?.text ?? null,
    forks: [...input.forks],
    score: { correct: score.correct, answered: score.answered },
  };
}
