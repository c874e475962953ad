import { AppError } from "@/lib/domain/errors";
import { nicknameKey } from "@/lib/domain/class-rules";
import { classRecordSchema, type ClassAnswerRecord, type ClassForkRecord, type ClassRecord, type ClassReflectionRecord, type ClassStudentRecord } from "@/lib/domain/class-session";
import { CLASS_LIST_LIMIT, compareClasses, type AddStudentResult, type ClassPatch, type ClassStore } from "./class-store";

interface ClassState {
  record: ClassRecord;
  students: ClassStudentRecord[];
  answers: ClassAnswerRecord[];
  reflections: ClassReflectionRecord[];
  forks: Array<ClassForkRecord & { cleared: boolean }>;
}

/** The in-memory {@link ClassStore} (tests, `--store memory`): the same rules as the SQLite adapter; records are copied in and out. */
export class MemoryClassStore implements ClassStore {
  private readonly classes = new Map<string, ClassState>();

  private state(classId: string): ClassState {
    const state = this.classes.get(classId);
    if (!state) throw new AppError("not-found", `No class ${classId}.`);
    return state;
  }

  private bump(state: ClassState): number {
    state.record = { ...state.record, version: state.record.version + 1 };
    return state.record.version;
  }

  async createClass(record: ClassRecord): Promise<void> {
    const valid = classRecordSchema.parse(record);
    if (this.classes.has(valid.id)) throw new AppError("conflict", `A class ${valid.id} exists already.`);
    if ([...this.classes.values()].some((state) => state.record.code === valid.code)) throw new AppError("conflict", `The join code ${valid.code} is taken.`);
    this.classes.set(valid.id, { record: structuredClone(valid), students: [], answers: [], reflections: [], forks: [] });
  }

  async getClass(classId: string): Promise<ClassRecord | null> {
    const state = this.classes.get(classId);
    return state ? structuredClone(state.record) : null;
  }

  async getClassByCode(code: string): Promise<ClassRecord | null> {
    const state = [...this.classes.values()].find((candidate) => candidate.record.code === code);
    return state ? structuredClone(state.record) : null;
  }

  async listClasses(limit = CLASS_LIST_LIMIT): Promise<ClassRecord[]> {
    return [...this.classes.values()].map((state) => structuredClone(state.record)).sort(compareClasses).slice(0, limit);
  }

  async countStudents(classIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const id of classIds) {
      const count = this.classes.get(id)?.students.length ?? 0;
      if (count > 0) counts.set(id, count);
    }
    return counts;
  }

  async updateClass(classId: string, patch: ClassPatch): Promise<ClassRecord> {
    const state = this.state(classId);
    state.record = classRecordSchema.parse({ ...state.record, ...structuredClone(patch) });
    this.bump(state);
    return structuredClone(state.record);
  }

  async touch(classId: string): Promise<number | null> {
    const state = this.classes.get(classId);
    return state ? this.bump(state) : null;
  }

  async addStudent(student: ClassStudentRecord, maxStudents: number): Promise<AddStudentResult> {
    const state = this.state(student.classId);
    if (state.students.length >= maxStudents) return { added: false, reason: "full" };
    const key = nicknameKey(student.nickname);
    if (state.students.some((existing) => nicknameKey(existing.nickname) === key)) return { added: false, reason: "nickname-taken" };
    state.students.push({ ...student });
    this.bump(state);
    return { added: true };
  }

  async listStudents(classId: string): Promise<ClassStudentRecord[]> {
    return (this.classes.get(classId)?.students ?? []).map((student) => ({ ...student }));
  }

  async findStudentByToken(classId: string, tokenHash: string): Promise<ClassStudentRecord | null> {
    const student = this.classes.get(classId)?.students.find((candidate) => candidate.tokenHash === tokenHash);
    return student ? { ...student } : null;
  }

  async saveAnswer(answer: ClassAnswerRecord): Promise<void> {
    const state = this.state(answer.classId);
    const index = state.answers.findIndex((existing) => existing.studentId === answer.studentId && existing.step === answer.step);
    if (index === -1) state.answers.push({ ...answer });
    else state.answers[index] = { ...answer };
    this.bump(state);
  }

  async listAnswers(classId: string, step?: number): Promise<ClassAnswerRecord[]> {
    return (this.classes.get(classId)?.answers ?? [])
      .filter((answer) => step === undefined || answer.step === step)
      .map((answer) => ({ ...answer }))
      .sort((a, b) => a.answeredAt.localeCompare(b.answeredAt) || a.studentId.localeCompare(b.studentId));
  }

  async saveReflection(reflection: ClassReflectionRecord): Promise<void> {
    const state = this.state(reflection.classId);
    const index = state.reflections.findIndex((existing) => existing.studentId === reflection.studentId && existing.step === reflection.step);
    if (index === -1) state.reflections.push({ ...reflection });
    else state.reflections[index] = { ...reflection };
    this.bump(state);
  }

  async listReflections(classId: string, step?: number): Promise<ClassReflectionRecord[]> {
    return (this.classes.get(classId)?.reflections ?? [])
      .filter((reflection) => step === undefined || reflection.step === step)
      .map((reflection) => ({ ...reflection }))
      .sort((a, b) => a.submittedAt.localeCompare(b.submittedAt) || a.studentId.localeCompare(b.studentId));
  }

  async addForks(forks: readonly ClassForkRecord[]): Promise<void> {
    const touched = new Set<ClassState>();
    for (const fork of forks) {
      const state = this.state(fork.classId);
      state.forks.push({ ...fork, cleared: false });
      touched.add(state);
    }
    for (const state of touched) this.bump(state);
  }

  async listForks(classId: string): Promise<ClassForkRecord[]> {
    return (this.classes.get(classId)?.forks ?? []).filter((fork) => !fork.cleared).map(({ cleared: _cleared, ...fork }) => fork);
  }

  async listClassBranchIds(runId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const state of this.classes.values()) if (state.record.runId === runId) for (const fork of state.forks) ids.add(fork.branchId);
    return ids;
  }

  async resetClass(classId: string): Promise<ClassRecord> {
    const state = this.state(classId);
    state.answers = [];
    state.reflections = [];
    state.forks = state.forks.map((fork) => ({ ...fork, cleared: true }));
    state.record = { ...state.record, step: 0, revealedSteps: [] };
    this.bump(state);
    return structuredClone(state.record);
  }
}
