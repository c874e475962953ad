import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { AppError } from "@/lib/domain/errors";
import { nicknameKey } from "@/lib/domain/class-rules";
import { classRecordSchema, type ClassAnswerRecord, type ClassForkRecord, type ClassRecord, type ClassReflectionRecord, type ClassStudentRecord } from "@/lib/domain/class-session";
import { CLASS_LIST_LIMIT, type AddStudentResult, type ClassPatch, type ClassStore } from "./class-store";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;
type ClassRow = typeof schema.classes.$inferSelect;

/** A `classes` row as a record (revealed steps parsed from JSON). */
function toRecord(row: ClassRow): ClassRecord {
  return classRecordSchema.parse({ ...row, revealedSteps: JSON.parse(row.revealedSteps) });
}

/**
 * The SQLite {@link ClassStore}: tables `classes`, `class_students`, `class_answers`,
 * `class_reflections` and `class_forks` of the app's database file (its own connection, WAL;
 * migrations applied on open). Each write and its version bump run in one transaction.
 */
export class SqliteClassStore implements ClassStore {
  private readonly client: SqliteConnection;
  private readonly db: Db;

  /** Opens (creating if needed) the database at `file`; `:memory:` gives a private database (tests). */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file);
    this.db = drizzleOver(this.client, schema);
    migrate(this.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
  }

  /** Closes the connection. */
  close(): void {
    this.client.close();
  }

  /** +1 on the class's version; the new version, or null for no such class. */
  private bump(classId: string): number | null {
    const row = this.db
      .update(schema.classes)
      .set({ version: sql`${schema.classes.version} + 1` })
      .where(eq(schema.classes.id, classId))
      .returning({ version: schema.classes.version })
      .get();
    return row?.version ?? null;
  }

  private requireClass(classId: string): void {
    if (!this.db.select({ id: schema.classes.id }).from(schema.classes).where(eq(schema.classes.id, classId)).get()) throw new AppError("not-found", `No class ${classId}.`);
  }

  async createClass(record: ClassRecord): Promise<void> {
    const valid = classRecordSchema.parse(record);
    const clash = this.db
      .select({ id: schema.classes.id })
      .from(schema.classes)
      .where(sql`${schema.classes.id} = ${valid.id} or ${schema.classes.code} = ${valid.code}`)
      .get();
    if (clash) throw new AppError("conflict", clash.id === valid.id ? `A class ${valid.id} exists already.` : `The join code ${valid.code} is taken.`);
    this.db
      .insert(schema.classes)
      .values({ ...valid, revealedSteps: JSON.stringify(valid.revealedSteps) })
      .run();
  }

  async getClass(classId: string): Promise<ClassRecord | null> {
    const row = this.db.select().from(schema.classes).where(eq(schema.classes.id, classId)).get();
    return row ? toRecord(row) : null;
  }

  async getClassByCode(code: string): Promise<ClassRecord | null> {
    const row = this.db.select().from(schema.classes).where(eq(schema.classes.code, code)).get();
    return row ? toRecord(row) : null;
  }

  async listClasses(limit = CLASS_LIST_LIMIT): Promise<ClassRecord[]> {
    return this.db
      .select()
      .from(schema.classes)
      .orderBy(sql`${schema.classes.createdAt} desc`, asc(schema.classes.id))
      .limit(limit)
      .all()
      .map(toRecord);
  }

  async countStudents(classIds: readonly string[]): Promise<Map<string, number>> {
    if (classIds.length === 0) return new Map();
    const rows = this.db
      .select({ classId: schema.classStudents.classId, students: count() })
      .from(schema.classStudents)
      .where(inArray(schema.classStudents.classId, [...classIds]))
      .groupBy(schema.classStudents.classId)
      .all();
    return new Map(rows.map((row) => [row.classId, row.students]));
  }

  async updateClass(classId: string, patch: ClassPatch): Promise<ClassRecord> {
    const { revealedSteps, ...rest } = patch;
    const set = { ...rest, ...(revealedSteps ? { revealedSteps: JSON.stringify(revealedSteps) } : {}), version: sql`${schema.classes.version} + 1` };
    const row = this.db.update(schema.classes).set(set).where(eq(schema.classes.id, classId)).returning().get();
    if (!row) throw new AppError("not-found", `No class ${classId}.`);
    return toRecord(row);
  }

  async touch(classId: string): Promise<number | null> {
    return this.bump(classId);
  }

  async addStudent(student: ClassStudentRecord, maxStudents: number): Promise<AddStudentResult> {
    const key = nicknameKey(student.nickname);
    const t = schema.classStudents;
    return this.client.transaction((): AddStudentResult => {
      this.requireClass(student.classId);
      const students = this.db.select({ n: count() }).from(t).where(eq(t.classId, student.classId)).get()?.n ?? 0;
      if (students >= maxStudents) return { added: false, reason: "full" };
      if (this.db.select({ id: t.id }).from(t).where(and(eq(t.classId, student.classId), eq(t.nicknameKey, key))).get()) return { added: false, reason: "nickname-taken" };
      this.db.insert(t).values({ ...student, nicknameKey: key }).run();
      this.bump(student.classId);
      return { added: true };
    }).immediate();
  }

  async listStudents(classId: string): Promise<ClassStudentRecord[]> {
    const t = schema.classStudents;
    return this.db
      .select({ id: t.id, classId: t.classId, nickname: t.nickname, tokenHash: t.tokenHash, joinedAt: t.joinedAt })
      .from(t)
      .where(eq(t.classId, classId))
      .orderBy(asc(t.joinedAt), asc(t.id))
      .all();
  }

  async findStudentByToken(classId: string, tokenHash: string): Promise<ClassStudentRecord | null> {
    const t = schema.classStudents;
    return (
      this.db
        .select({ id: t.id, classId: t.classId, nickname: t.nickname, tokenHash: t.tokenHash, joinedAt: t.joinedAt })
        .from(t)
        .where(and(eq(t.classId, classId), eq(t.tokenHash, tokenHash)))
        .get() ?? null
    );
  }

  async saveAnswer(answer: ClassAnswerRecord): Promise<void> {
    const t = schema.classAnswers;
    this.client.transaction(() => {
      this.requireClass(answer.classId);
      this.db
        .insert(t)
        .values(answer)
        .onConflictDoUpdate({ target: [t.classId, t.studentId, t.step], set: { choiceId: answer.choiceId, answeredAt: answer.answeredAt } })
        .run();
      this.bump(answer.classId);
    })();
  }

  async listAnswers(classId: string, step?: number): Promise<ClassAnswerRecord[]> {
    const t = schema.classAnswers;
    return this.db
      .select()
      .from(t)
      .where(step === undefined ? eq(t.classId, classId) : and(eq(t.classId, classId), eq(t.step, step)))
      .orderBy(asc(t.answeredAt), asc(t.studentId))
      .all();
  }

  async saveReflection(reflection: ClassReflectionRecord): Promise<void> {
    const t = schema.classReflections;
    this.client.transaction(() => {
      this.requireClass(reflection.classId);
      this.db
        .insert(t)
        .values(reflection)
        .onConflictDoUpdate({ target: [t.classId, t.studentId, t.step], set: { text: reflection.text, submittedAt: reflection.submittedAt } })
        .run();
      this.bump(reflection.classId);
    })();
  }

  async listReflections(classId: string, step?: number): Promise<ClassReflectionRecord[]> {
    const t = schema.classReflections;
    return this.db
      .select()
      .from(t)
      .where(step === undefined ? eq(t.classId, classId) : and(eq(t.classId, classId), eq(t.step, step)))
      .orderBy(asc(t.submittedAt), asc(t.studentId))
      .all();
  }

  async addForks(forks: readonly ClassForkRecord[]): Promise<void> {
    if (forks.length === 0) return;
    this.client.transaction(() => {
      const classIds = new Set(forks.map((fork) => fork.classId));
      const runs = new Map<string, string>();
      for (const classId of classIds) {
        const row = this.db.select({ runId: schema.classes.runId }).from(schema.classes).where(eq(schema.classes.id, classId)).get();
        if (!row) throw new AppError("not-found", `No class ${classId}.`);
        runs.set(classId, row.runId);
      }
      for (const fork of forks) this.db.insert(schema.classForks).values({ ...fork, runId: runs.get(fork.classId) ?? "", cleared: 0 }).run();
      for (const classId of classIds) this.bump(classId);
    })();
  }

  async listForks(classId: string): Promise<ClassForkRecord[]> {
    const t = schema.classForks;
    return this.db
      .select({ classId: t.classId, step: t.step, groupId: t.groupId, text: t.text, branchId: t.branchId, trial: t.trial, createdAt: t.createdAt })
      .from(t)
      .where(and(eq(t.classId, classId), eq(t.cleared, 0)))
      .orderBy(asc(t.createdAt), asc(t.branchId))
      .all();
  }

  async listClassBranchIds(runId: string): Promise<Set<string>> {
    const t = schema.classForks;
    return new Set(
      this.db
        .select({ branchId: t.branchId })
        .from(t)
        .where(eq(t.runId, runId))
        .all()
        .map((row) => row.branchId),
    );
  }

  async resetClass(classId: string): Promise<ClassRecord> {
    return this.client.transaction(() => {
      this.requireClass(classId);
      this.db.delete(schema.classAnswers).where(eq(schema.classAnswers.classId, classId)).run();
      this.db.delete(schema.classReflections).where(eq(schema.classReflections.classId, classId)).run();
      this.db.update(schema.classForks).set({ cleared: 1 }).where(eq(schema.classForks.classId, classId)).run();
      const row = this.db
        .update(schema.classes)
        .set({ step: 0, revealedSteps: "[]", version: sql`${schema.classes.version} + 1` })
        .where(eq(schema.classes.id, classId))
        .returning()
        .get();
      if (!row) throw new AppError("not-found", `No class ${classId}.`);
      return toRecord(row);
    })();
  }
}
