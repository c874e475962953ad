import type { ClassStore } from "@/lib/db/class-store";
import { checkNickname, groupReflections, normaliseJoinCode } from "@/lib/domain/class-rules";
import {
  CLASS_MAX_STUDENTS,
  joinPathFor,
  type ClassAnswerRequest,
  type ClassByCodeResponse,
  type ClassCreateRequest,
  type ClassCreateResponse,
  type ClassFork,
  type ClassForksRequest,
  type ClassJoinRequest,
  type ClassJoinResponse,
  type ClassListResponse,
  type ClassRecord,
  type ClassReflectionRequest,
  type ClassStudentRecord,
  type ClassStudentView,
  type ClassTeacherView,
} from "@/lib/domain/class-session";
import { environmentIdSchema } from "@/lib/domain/config";
import { AppError, isAppError } from "@/lib/domain/errors";
import type { LessonDocument, LessonRunResponse } from "@/lib/lessons/lesson-schema";
import { forkView, runClassForks, type ForkTask } from "./class-forks";
import { hashSecret, newClassId, newJoinCode, newSecret, secretMatches } from "./class-secrets";
import { resolveClassSteps, type ResolvedClassStep } from "./class-steps";
import { ClassVersionHub } from "./class-version-hub";
import { studentView, teacherView, type ClassViewInput } from "./class-views";
import type { RunEventBus } from "./run-event-bus";
import type { RunService } from "./run-service";

/**
 * Class sessions (lib/domain/class-session.ts, docs/guides/teaching.md "Teaching a class"): a
 * teacher plays a lesson to a room, students join with a code and a nickname. This service holds
 * the rules: the teacher secret gates step / reveal / forks / end / reset; a student token gates
 * answers and reflections, only at the class's current step; a class ends by itself at `endsAt`
 * and then takes no writes (410); the right answer never leaves the server before the reveal.
 * Every change bumps the class's version, published to {@link ClassVersionHub} for the SSE stream.
 */

/** What the class service needs of lessons (lib/server/lesson-service.ts `LessonService`). */
export interface ClassLessonPort {
  /** @throws AppError("not-found") naming the lessons that exist. */
  get(lessonId: string): LessonDocument | Promise<LessonDocument>;
  /** The lesson's run, created or reused, as the lesson player starts it. */
  ensureRun(lessonId: string): Promise<LessonRunResponse>;
}

/**
 * Who asks for a teacher action: the holder of the secret (the browser), or the CLI acting as
 * `userId` (`cli class end`): allowed for the class's creator, and for anyone when sign-in is
 * off (`userId` null: the local user owns everything).
 */
export type TeacherCredential = { secret: string | null } | { userId: string | null };

const TEACHER_HINT = "open the teacher link that `cli class start` printed, or the class page on the computer that started it";

/** The class service's collaborators. */
export interface ClassServiceDeps {
  store: ClassStore;
  runs: RunService;
  lessons: ClassLessonPort;
  bus: RunEventBus;
  now?: () => Date;
  /** Poll interval of the version hub, ms (tests shorten it). */
  pollMs?: number;
  /** Origins phones reach this server at (lib/server/class-lan-warning.ts `classStudentOrigins`); default none. */
  studentOrigins?: () => string[];
}

/** Debounce of version bumps while class forks run, ms. */
const FORK_TOUCH_MS = 300;
/** A fork watcher gives up after this long, ms (the view still reads the branch when asked). */
const FORK_WATCH_MS = 15 * 60_000;

/** Plays lessons to classes; see the module comment. */
export class ClassService {
  /** The fan-out of class versions to SSE streams. */
  readonly hub: ClassVersionHub;
  private readonly store: ClassStore;
  private readonly runs: RunService;
  private readonly lessons: ClassLessonPort;
  private readonly bus: RunEventBus;
  private readonly now: () => Date;
  private readonly studentOrigins: () => string[];
  private readonly stepCache = new Map<string, ResolvedClassStep[]>();
  private readonly finishedForks = new Map<string, ClassFork>();

  constructor(deps: ClassServiceDeps) {
    this.store = deps.store;
    this.runs = deps.runs;
    this.lessons = deps.lessons;
    this.bus = deps.bus;
    this.now = deps.now ?? (() => new Date());
    this.studentOrigins = deps.studentOrigins ?? (() => []);
    this.hub = new ClassVersionHub(async (classId) => (await this.store.getClass(classId))?.version ?? null, deps.pollMs);
  }

  /** Starts a class for a lesson (its run started or reused); the teacher secret is in the answer once. */
  async create(request: ClassCreateRequest, createdBy: string | null): Promise<ClassCreateResponse> {
    const { lesson } = await this.lessons.get(request.lessonId);
    const { runId } = await this.lessons.ensureRun(lesson.id);
    const teacherSecret = newSecret();
    const now = this.now();
    for (let attempt = 0; ; attempt += 1) {
      const record: ClassRecord = {
        id: newClassId("class"),
        code: newJoinCode(),
        lessonId: lesson.id,
        lessonTitle: lesson.title,
        runId,
        teacherSecretHash: hashSecret(teacherSecret),
        status: "open",
        step: 0,
        revealedSteps: [],
        maxStudents: CLASS_MAX_STUDENTS,
        createdBy,
        createdAt: now.toISOString(),
        endsAt: new Date(now.getTime() + request.minutes * 60_000).toISOString(),
        endedAt: null,
        version: 0,
      };
      try {
        await this.store.createClass(record);
      } catch (error) {
        if (isAppError(error, "conflict") && attempt < 5) continue; // a join code drawn twice: draw another
        throw error;
      }
      return { class: await this.teacherViewOf(record, { projector: false }), teacherSecret, joinPath: joinPathFor(record.code) };
    }
  }

  /** Every class, newest first (ended ones too). */
  async list(): Promise<ClassListResponse> {
    const records = await Promise.all((await this.store.listClasses()).map((record) => this.expireIfDue(record)));
    const counts = await this.store.countStudents(records.map((record) => record.id));
    return {
      classes: records.map((record) => ({ id: record.id, code: record.code, lessonId: record.lessonId, lessonTitle: record.lessonTitle, status: record.status, students: counts.get(record.id) ?? 0, createdAt: record.createdAt, endsAt: record.endsAt })),
    };
  }

  /** The class a join code names (public: the phone's first question). */
  async byCode(code: string): Promise<ClassByCodeResponse> {
    const record = await this.recordByCode(code);
    return { classId: record.id, lessonTitle: record.lessonTitle, status: record.status };
  }

  /** A student joins with the code and a nickname: their token is in the answer (keep it; send it as `x-class-student`). */
  async join(request: ClassJoinRequest): Promise<ClassJoinResponse> {
    const record = await this.recordByCode(request.code);
    this.assertOpen(record);
    const nickname = checkNickname(request.nickname);
    if (!nickname.ok) throw new AppError("invalid-input", nickname.message);
    const studentToken = newSecret();
    const student: ClassStudentRecord = { id: newClassId("student"), classId: record.id, nickname: nickname.nickname, tokenHash: hashSecret(studentToken), joinedAt: this.now().toISOString() };
    const result = await this.store.addStudent(student, record.maxStudents);
    if (!result.added) {
      throw new AppError(
        "conflict",
        result.reason === "full" ? `This class is full (${record.maxStudents} students): ask the teacher to start a second class.` : `Someone in this class is already called "${nickname.nickname}": pick another nickname.`,
      );
    }
    await this.published(record.id);
    return { classId: record.id, studentId: student.id, studentToken, nickname: student.nickname };
  }

  /** The teacher's view (or the projector's, with every nickname hidden). @throws AppError("forbidden") without the teacher secret. */
  async teacherView(classId: string, credential: TeacherCredential, options: { projector: boolean }): Promise<ClassTeacherView> {
    const record = await this.teacherRecord(classId, credential, "see the class");
    return this.teacherViewOf(record, options);
  }

  /** A student's view. @throws AppError("forbidden") for a missing or unknown token. */
  async studentView(classId: string, token: string | null): Promise<ClassStudentView> {
    const { record, student } = await this.studentOf(classId, token);
    return studentView(await this.viewInput(record), student);
  }

  /** Moves the class to step `step` (0-based). */
  async setStep(classId: string, credential: TeacherCredential, step: number): Promise<ClassTeacherView> {
    const record = await this.teacherRecord(classId, credential, "move the class to another step");
    this.assertOpen(record);
    await this.stepsOf(record, step);
    return this.afterWrite(await this.store.updateClass(record.id, { step }));
  }

  /** Reveals step `step`'s answer: the histogram and the right choice reach every view; answers to it close. */
  async reveal(classId: string, credential: TeacherCredential, step: number): Promise<ClassTeacherView> {
    const record = await this.teacherRecord(classId, credential, "reveal the answer");
    this.assertOpen(record);
    const resolved = (await this.stepsOf(record, step))[step];
    if (!resolved?.before.question) throw new AppError("invalid-input", `Step ${step + 1} asks no question: there is nothing to reveal.`);
    if (!resolved.key) throw new AppError("conflict", `The lesson's run has not reached step ${step + 1}'s answer yet; reveal once it has (the projector shows the run).`);
    if (record.revealedSteps.includes(step)) return this.teacherViewOf(record, { projector: false });
    return this.afterWrite(await this.store.updateClass(record.id, { revealedSteps: [...record.revealedSteps, step].sort((a, b) => a - b) }));
  }

  /** Runs trial N+1 with each picked reflection group's text, each on its own branch of the lesson's run. */
  async runForks(classId: string, credential: TeacherCredential, request: ClassForksRequest): Promise<{ forks: ClassFork[] }> {
    const record = await this.teacherRecord(classId, credential, "run the class's reflections");
    this.assertOpen(record);
    const practice = (await this.stepsOf(record, request.step))[request.step]?.before.practice;
    if (!practice) throw new AppError("invalid-input", `Step ${request.step + 1} is not a "write your own reflection" step: pick the step where the class wrote reflections.`);
    const groups = groupReflections((await this.store.listReflections(record.id, request.step)).map((reflection) => ({ ...reflection, nickname: null })));
    const already = new Set((await this.store.listForks(record.id)).filter((fork) => fork.step === request.step).map((fork) => fork.groupId));
    const picked = [...new Set(request.groupIds)].map((groupId) => {
      const group = groups.find((candidate) => candidate.id === groupId);
      if (!group) throw new AppError("not-found", `No reflection group ${groupId} at step ${request.step + 1} (a student may have rewritten it): refresh and pick again.`);
      if (already.has(groupId)) throw new AppError("conflict", `The reflection "${group.text.slice(0, 60)}" already runs as a fork; pick another one.`);
      return { groupId, text: group.text };
    });
    const records = await runClassForks(this.runs, { classId: record.id, lessonId: record.lessonId, runId: record.runId, step: request.step, trial: practice.trial, inputs: picked, now: this.now });
    await this.store.addForks(records);
    this.watchForks(record, records.map((fork) => fork.branchId));
    await this.published(record.id);
    return { forks: await this.forkViews(record) };
  }

  /** Ends the class: no more writes; everything stays readable from the class page. */
  async end(classId: string, credential: TeacherCredential): Promise<ClassTeacherView> {
    const record = await this.teacherRecord(classId, credential, "end the class");
    if (record.status === "ended") return this.teacherViewOf(record, { projector: false });
    return this.afterWrite(await this.store.updateClass(record.id, { status: "ended", endedAt: this.now().toISOString() }));
  }

  /** Clears the class's answers, reflections and forks; back to step 0, still open. */
  async reset(classId: string, credential: TeacherCredential): Promise<ClassTeacherView> {
    const record = await this.teacherRecord(classId, credential, "reset the class");
    this.assertOpen(record);
    return this.afterWrite(await this.store.resetClass(record.id));
  }

  /** A student's answer to the current step's question; changeable until the reveal. */
  async answer(classId: string, token: string | null, request: ClassAnswerRequest): Promise<ClassStudentView> {
    const { record, student } = await this.studentOf(classId, token);
    this.assertOpen(record);
    this.assertCurrent(record, request.step);
    const question = (await this.stepsOf(record, request.step))[request.step]?.before.question;
    if (!question) throw new AppError("invalid-input", `Step ${request.step + 1} asks no question.`);
    if (!question.choices.some((choice) => choice.id === request.choiceId)) throw new AppError("invalid-input", `"${request.choiceId}" is not a choice of this question (choices: ${question.choices.map((choice) => choice.id).join(", ")}).`);
    if (record.revealedSteps.includes(request.step)) throw new AppError("conflict", "The answer has been revealed: answers to this question are closed.");
    await this.store.saveAnswer({ classId: record.id, studentId: student.id, step: request.step, choiceId: request.choiceId, answeredAt: this.now().toISOString() });
    await this.published(record.id);
    return this.studentView(classId, token);
  }

  /** A student's reflection at the current practice step; replaceable until the teacher runs forks of that step. */
  async reflect(classId: string, token: string | null, request: ClassReflectionRequest): Promise<ClassStudentView> {
    const { record, student } = await this.studentOf(classId, token);
    this.assertOpen(record);
    this.assertCurrent(record, request.step);
    if (!(await this.stepsOf(record, request.step))[request.step]?.before.practice) throw new AppError("invalid-input", `Step ${request.step + 1} asks for no reflection.`);
    if ((await this.store.listForks(record.id)).some((fork) => fork.step === request.step)) throw new AppError("conflict", "The teacher has already run the class's reflections for this step: yours can no longer change.");
    await this.store.saveReflection({ classId: record.id, studentId: student.id, step: request.step, text: request.text, submittedAt: this.now().toISOString() });
    await this.published(record.id);
    return this.studentView(classId, token);
  }

  /** A class's current version (the stream's first event). @throws AppError("not-found"). */
  async version(classId: string): Promise<number> {
    return (await this.recordOf(classId)).version;
  }

  /** Branches of `runId` that classes made: the run's own branch lists leave them out. */
  classBranchIds(runId: string): Promise<Set<string>> {
    return this.store.listClassBranchIds(runId);
  }

  // ---------------------------------------------------------------- internals

  private async recordOf(classId: string): Promise<ClassRecord> {
    const record = await this.store.getClass(classId);
    if (!record) throw new AppError("not-found", `No class ${classId}: check the link, or start a class with \`cli class start --lesson <id>\`.`);
    return this.expireIfDue(record);
  }

  private async recordByCode(input: string): Promise<ClassRecord> {
    const code = normaliseJoinCode(input);
    const record = code ? await this.store.getClassByCode(code) : null;
    if (!record) throw new AppError("not-found", `No class with code ${input.trim().toUpperCase()}: check the code on the projector.`);
    return this.expireIfDue(record);
  }

  /** A class past its `endsAt` is ended (stored so, once). */
  private async expireIfDue(record: ClassRecord): Promise<ClassRecord> {
    if (record.status === "ended" || Date.parse(record.endsAt) > this.now().getTime()) return record;
    const ended = await this.store.updateClass(record.id, { status: "ended", endedAt: record.endsAt });
    this.hub.publish(ended.id, ended.version);
    return ended;
  }

  /** Checks the teacher's credential before a route reads a request body (a student learns nothing from a 400). @throws AppError("forbidden"), AppError("not-found") */
  async assertTeacher(classId: string, credential: TeacherCredential): Promise<void> {
    await this.teacherRecord(classId, credential, "change the class");
  }

  private async teacherRecord(classId: string, credential: TeacherCredential, action: string): Promise<ClassRecord> {
    const record = await this.recordOf(classId);
    if ("userId" in credential) {
      if (credential.userId === null || credential.userId === record.createdBy) return record;
      throw new AppError("forbidden", `Only the teacher who started class ${record.code} can ${action}.`);
    }
    if (!credential.secret || !secretMatches(credential.secret, record.teacherSecretHash)) throw new AppError("forbidden", `Only the teacher can ${action}: ${TEACHER_HINT}.`);
    return record;
  }

  private async studentOf(classId: string, token: string | null): Promise<{ record: ClassRecord; student: ClassStudentRecord }> {
    const record = await this.recordOf(classId);
    const student = token ? await this.store.findStudentByToken(record.id, hashSecret(token)) : null;
    if (!student) throw new AppError("forbidden", `This device has not joined class ${record.code} (its student token is missing or not this class's): join at ${joinPathFor(record.code)}.`);
    return { record, student };
  }

  private assertOpen(record: ClassRecord): void {
    if (record.status === "ended") throw new AppError("gone", "This class has ended: its answers, reflections and forks stay readable on the class page.");
  }

  private assertCurrent(record: ClassRecord, step: number): void {
    if (step !== record.step) throw new AppError("conflict", `The teacher has moved on: the class is at step ${record.step + 1} now. Refresh to follow.`);
  }

  /** The resolved steps of the class's lesson; `step` must be one of them. */
  private async stepsOf(record: ClassRecord, step?: number): Promise<ResolvedClassStep[]> {
    const cacheKey = `${record.lessonId}\n${record.runId}`;
    let steps = this.stepCache.get(cacheKey);
    if (!steps) {
      const [{ lesson }, { events }] = await Promise.all([this.lessons.get(record.lessonId), this.runs.events(record.runId)]);
      steps = resolveClassSteps(lesson, events);
      // A finished run's log (root branch) no longer changes: resolve its steps once.
      if (events.some((event) => event.type === "run-end")) this.stepCache.set(cacheKey, steps);
    }
    if (step !== undefined && (step < 0 || step >= steps.length)) throw new AppError("invalid-input", `The lesson has steps 1 to ${steps.length} (indexes 0 to ${steps.length - 1}); got index ${step}.`);
    return steps;
  }

  private async forkViews(record: ClassRecord): Promise<ClassFork[]> {
    const forks = await this.store.listForks(record.id);
    if (forks.length === 0) return [];
    const run = await this.runs.getRun(record.runId);
    const environment = environmentIdSchema.parse(run.config.environment);
    const task: ForkTask = { environment, taskId: run.config.taskId, strategy: run.config.strategy };
    return Promise.all(
      forks.map(async (fork) => {
        const done = this.finishedForks.get(fork.branchId);
        if (done && done.text === fork.text) return done;
        const { events } = await this.runs.events(record.runId, 0, fork.branchId);
        const view = forkView(fork, events, task);
        if (view.status !== "running") this.finishedForks.set(fork.branchId, view);
        return view;
      }),
    );
  }

  private async viewInput(record: ClassRecord): Promise<ClassViewInput> {
    const [steps, students, answers, reflections, forks] = await Promise.all([this.stepsOf(record), this.store.listStudents(record.id), this.store.listAnswers(record.id), this.store.listReflections(record.id), this.forkViews(record)]);
    return { record, steps, students, answers, reflections, forks };
  }

  private async teacherViewOf(record: ClassRecord, options: { projector: boolean }): Promise<ClassTeacherView> {
    return teacherView(await this.viewInput(record), { ...options, studentOrigins: this.studentOrigins() });
  }

  private async afterWrite(record: ClassRecord): Promise<ClassTeacherView> {
    this.hub.publish(record.id, record.version);
    return this.teacherViewOf(record, { projector: false });
  }

  private async published(classId: string): Promise<void> {
    const record = await this.store.getClass(classId);
    if (record) this.hub.publish(record.id, record.version);
  }

  /** Bumps the class's version (debounced) as its forks' branches progress, until they end. */
  private watchForks(record: ClassRecord, branchIds: readonly string[]): void {
    const running = new Set(branchIds);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = () => {
      unsubscribe();
      clearTimeout(giveUp);
    };
    const unsubscribe = this.bus.subscribe(record.runId, (events) => {
      const mine = events.filter((event) => running.has(event.branchId));
      if (mine.length === 0) return;
      for (const event of mine) if (event.type === "run-end") running.delete(event.branchId);
      timer ??= setTimeout(() => {
        timer = null;
        void this.store
          .touch(record.id)
          .then((version) => version !== null && this.hub.publish(record.id, version))
          .catch((error: unknown) => console.error(`[classes] could not bump class ${record.id}: ${error instanceof Error ? error.message : String(error)}`));
      }, FORK_TOUCH_MS);
      if (running.size === 0) stop();
    });
    const giveUp = setTimeout(stop, FORK_WATCH_MS);
    giveUp.unref?.();
  }
}
