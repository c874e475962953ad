import type { ClassAnswerRecord, ClassForkRecord, ClassRecord, ClassReflectionRecord, ClassStudentRecord } from "@/lib/domain/class-session";

/**
 * Storage of class sessions (lib/domain/class-session.ts; tables `classes`, `class_students`,
 * `class_answers`, `class_reflections`, `class_forks`). Adapters: in-memory, SQLite and
 * PostgreSQL, one contract suite (tests/db/class-store-contract.ts). Only hashes of the teacher
 * secret and the students' tokens are stored.
 *
 * Every write bumps the class's `version` (one number per class, +1 per change) in the same
 * transaction and returns it: the SSE stream sends only that number, clients refetch.
 */
export interface ClassStore {
  /**
   * Stores a new class (its `version` as given, usually 0).
   * @throws AppError("conflict") when the id or the join code is taken (the caller draws another code).
   */
  createClass(record: ClassRecord): Promise<void>;
  getClass(classId: string): Promise<ClassRecord | null>;
  /** The class with this (normalised) join code, open or ended. */
  getClassByCode(code: string): Promise<ClassRecord | null>;
  /** Newest first (`createdAt`, then id), at most `limit` (default 200). */
  listClasses(limit?: number): Promise<ClassRecord[]>;
  /** How many students each class has (classes without students are absent). */
  countStudents(classIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Changes a class's step, revealed steps or status; bumps its version.
   * @throws AppError("not-found") when there is no such class.
   */
  updateClass(classId: string, patch: ClassPatch): Promise<ClassRecord>;
  /** Bumps a class's version with no other change (a fork's branch progressed); the new version, or null for no such class. */
  touch(classId: string): Promise<number | null>;
  /**
   * Adds a student unless the class has `maxStudents` already or the nickname is taken in it
   * (case- and accent-insensitive, lib/domain/class-rules.ts `nicknameKey`), atomically; bumps the
   * version when added. Answers why not, rather than throwing: the service words the 409.
   */
  addStudent(student: ClassStudentRecord, maxStudents: number): Promise<AddStudentResult>;
  /** In join order. */
  listStudents(classId: string): Promise<ClassStudentRecord[]>;
  /** The student of this class holding the token whose sha256 is `tokenHash`, or null. */
  findStudentByToken(classId: string, tokenHash: string): Promise<ClassStudentRecord | null>;
  /** Stores (or replaces) a student's answer to a step; bumps the version. */
  saveAnswer(answer: ClassAnswerRecord): Promise<void>;
  /** Every answer of the class (of one step when `step` is given), in answer order. */
  listAnswers(classId: string, step?: number): Promise<ClassAnswerRecord[]>;
  /** Stores (or replaces) a student's reflection at a step; bumps the version. */
  saveReflection(reflection: ClassReflectionRecord): Promise<void>;
  /** Every reflection of the class (of one step when `step` is given), oldest first. */
  listReflections(classId: string, step?: number): Promise<ClassReflectionRecord[]>;
  /** Records forks the teacher ran; bumps the version. */
  addForks(forks: readonly ClassForkRecord[]): Promise<void>;
  /** The class's forks not cleared by a reset, oldest first. */
  listForks(classId: string): Promise<ClassForkRecord[]>;
  /**
   * Every branch id of run `runId` that a class made, cleared or not (the run's own branch lists
   * leave them out, so a class leaves the lesson's run list as it was).
   */
  listClassBranchIds(runId: string): Promise<Set<string>>;
  /**
   * Reset: deletes the class's answers and reflections, marks its forks cleared (their branches
   * stay known as class branches), step back to 0, nothing revealed; bumps the version.
   * @throws AppError("not-found") when there is no such class.
   */
  resetClass(classId: string): Promise<ClassRecord>;
}

/** What {@link ClassStore.updateClass} may change. */
export type ClassPatch = Partial<Pick<ClassRecord, "step" | "revealedSteps" | "status" | "endedAt">>;

/** What {@link ClassStore.addStudent} did: added, or refused because the class is full or the nickname taken. */
export type AddStudentResult = { added: true } | { added: false; reason: "full" | "nickname-taken" };

/** Sort order of {@link ClassStore.listClasses}: newest `createdAt` first, then id. */
export function compareClasses(a: ClassRecord, b: ClassRecord): number {
  return b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
}

/** Default most rows of {@link ClassStore.listClasses}. */
export const CLASS_LIST_LIMIT = 200;
