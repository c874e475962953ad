import { and, asc, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import { nicknameKey } from "@/lib/domain/class-rules";
import { classRecordSchema, type ClassAnswerRecord, type ClassForkRecord, type ClassRecord, type ClassReflectionRecord, type ClassStudentRecord } from "@/lib/domain/class-session";
import { CLASS_LIST_LIMIT, type AddStudentResult, type ClassPatch, type ClassStore } from "../class-store";
import type { PgDb, PgExecutor } from "./database";
import * as schema from "./schema";

type Ready = () => Promise<void>;
const noWait: Ready = async () => undefined;

function toRecord(row: typeof schema.classes.$inferSelect): ClassRecord {
  return classRecordSchema.parse(row);
}

const studentColumns = {
  id: schema.classStudents.id,
  classId: schema.classStudents.classId,
  nickname: schema.classStudents.nickname,
  tokenHash: schema.classStudents.tokenHash,
  joinedAt: schema.classStudents.joinedAt,
};

/**
 * The PostgreSQL {@link ClassStore}: the same tables and rules as the SQLite adapter
 * (lib/db/class-store-sqlite.ts). A join locks the class row (`FOR UPDATE`) so concurrent joins
 * on several app servers cannot overfill a class; every write bumps the version in its transaction.
 */
export class PgClassStore implements ClassStore {
  constructor(private readonly db: PgDb, private readonly ready: Ready = noWait) {}

  private async bump(executor: PgExecutor, classId: string): Promise<number | null> {
    const [row] = await executor
      .update(schema.classes)
      .set({ version: sql`${schema.classes.version} + 1` })
      .where(eq(schema.classes.id, classId))
      .returning({ version: schema.classes.version });
    return row?.version ?? null;
  }

  private async lockClass(executor: PgExecutor, classId: string): Promise<void> {
    const [row] = await executor.select({ id: schema.classes.id }).from(schema.classes).where(eq(schema.classes.id, classId)).for("update");
    if (!row) throw new AppError("not-found", `No class ${classId}.`);
  }

  async createClass(record: ClassRecord): Promise<void> {
    await this.ready();
    const valid = classRecordSchema.parse(record);
    const [clash] = await this.db
      .select({ id: schema.classes.id })
      .from(schema.classes)
      .where(or(eq(schema.classes.id, valid.id), eq(schema.classes.code, valid.code)));
    if (clash) throw new AppError("conflict", clash.id === valid.id ? `A class ${valid.id} exists already.` : `The join code ${valid.code} is taken.`);
    const added = await this.db.insert(schema.classes).values(valid).onConflictDoNothing().returning({ id: schema.classes.id });
    if (added.length === 0) throw new AppError("conflict", `The join code ${valid.code} is taken.`);
  }

  async getClass(classId: string): Promise<ClassRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.classes).where(eq(schema.classes.id, classId));
    return row ? toRecord(row) : null;
  }

  async getClassByCode(code: string): Promise<ClassRecord | null> {
    await this.ready();
    const [row] = await this.db.select().from(schema.classes).where(eq(schema.classes.code, code));
    return row ? toRecord(row) : null;
  }

  async listClasses(limit = CLASS_LIST_LIMIT): Promise<ClassRecord[]> {
    await this.ready();
    const rows = await this.db.select().from(schema.classes).orderBy(desc(schema.classes.createdAt), asc(schema.classes.id)).limit(limit);
    return rows.map(toRecord);
  }

  async countStudents(classIds: readonly string[]): Promise<Map<string, number>> {
    await this.ready();
    if (classIds.length === 0) return new Map();
    const t = schema.classStudents;
    const rows = await this.db
      .select({ classId: t.classId, students: count() })
      .from(t)
      .where(inArray(t.classId, [...classIds]))
      .groupBy(t.classId);
    return new Map(rows.map((row) => [row.classId, Number(row.students)]));
  }

  async updateClass(classId: string, patch: ClassPatch): Promise<ClassRecord> {
    await this.ready();
    const [row] = await this.db
      .update(schema.classes)
      .set({ ...patch, version: sql`${schema.classes.version} + 1` })
      .where(eq(schema.classes.id, classId))
      .returning();
    if (!row) throw new AppError("not-found", `No class ${classId}.`);
    return toRecord(row);
  }

  async touch(classId: string): Promise<number | null> {
    await this.ready();
    return this.bump(this.db, classId);
  }

  async addStudent(student: ClassStudentRecord, maxStudents: number): Promise<AddStudentResult> {
    await this.ready();
    const key = nicknameKey(student.nickname);
    const t = schema.classStudents;
    return this.db.transaction(async (tx): Promise<AddStudentResult> => {
      await this.lockClass(tx, student.classId);
      const [counted] = await tx.select({ n: count() }).from(t).where(eq(t.classId, student.classId));
      if (Number(counted?.n ?? 0) >= maxStudents) return { added: false, reason: "full" };
      const [taken] = await tx.select({ id: t.id }).from(t).where(and(eq(t.classId, student.classId), eq(t.nicknameKey, key)));
      if (taken) return { added: false, reason: "nickname-taken" };
      await tx.insert(t).values({ ...student, nicknameKey: key });
      await this.bump(tx, student.classId);
      return { added: true };
    });
  }

  async listStudents(classId: string): Promise<ClassStudentRecord[]> {
    await this.ready();
    const t = schema.classStudents;
    return this.db.select(studentColumns).from(t).where(eq(t.classId, classId)).orderBy(asc(t.joinedAt), asc(t.id));
  }

  async findStudentByToken(classId: string, tokenHash: string): Promise<ClassStudentRecord | null> {
    await this.ready();
    const t = schema.classStudents;
    const [row] = await this.db.select(studentColumns).from(t).where(and(eq(t.classId, classId), eq(t.tokenHash, tokenHash)));
    return row ?? null;
  }

  async saveAnswer(answer: ClassAnswerRecord): Promise<void> {
    await this.ready();
    const t = schema.classAnswers;
    await this.db.transaction(async (tx) => {
      await this.lockClass(tx, answer.classId);
      await tx
        .insert(t)
        .values(answer)
        .onConflictDoUpdate({ target: [t.classId, t.studentId, t.step], set: { choiceId: answer.choiceId, answeredAt: answer.answeredAt } });
      await this.bump(tx, answer.classId);
    });
  }

  async listAnswers(classId: string, step?: number): Promise<ClassAnswerRecord[]> {
    await this.ready();
    const t = schema.classAnswers;
    return this.db
      .select()
      .from(t)
      .where(step === undefined ? eq(t.classId, classId) : and(eq(t.classId, classId), eq(t.step, step)))
      .orderBy(asc(t.answeredAt), asc(t.studentId));
  }

  async saveReflection(reflection: ClassReflectionRecord): Promise<void> {
    await this.ready();
    const t = schema.classReflections;
    await this.db.transaction(async (tx) => {
      await this.lockClass(tx, reflection.classId);
      await tx
        .insert(t)
        .values(reflection)
        .onConflictDoUpdate({ target: [t.classId, t.studentId, t.step], set: { text: reflection.text, submittedAt: reflection.submittedAt } });
      await this.bump(tx, reflection.classId);
    });
  }

  async listReflections(classId: string, step?: number): Promise<ClassReflectionRecord[]> {
    await this.ready();
    const t = schema.classReflections;
    return this.db
      .select()
      .from(t)
      .where(step === undefined ? eq(t.classId, classId) : and(eq(t.classId, classId), eq(t.step, step)))
      .orderBy(asc(t.submittedAt), asc(t.studentId));
  }

  async addForks(forks: readonly ClassForkRecord[]): Promise<void> {
    await this.ready();
    if (forks.length === 0) return;
    await this.db.transaction(async (tx) => {
      const classIds = [...new Set(forks.map((fork) => fork.classId))];
      const rows = await tx.select({ id: schema.classes.id, runId: schema.classes.runId }).from(schema.classes).where(inArray(schema.classes.id, classIds)).for("update");
      const runs = new Map(rows.map((row) => [row.id, row.runId]));
      const missing = classIds.find((id) => !runs.has(id));
      if (missing) throw new AppError("not-found", `No class ${missing}.`);
      await tx.insert(schema.classForks).values(forks.map((fork) => ({ ...fork, runId: runs.get(fork.classId) ?? "", cleared: false })));
      for (const classId of classIds) await this.bump(tx, classId);
    });
  }

  async listForks(classId: string): Promise<ClassForkRecord[]> {
    await this.ready();
    const t = schema.classForks;
    return this.db
      .select({ classId: t.classId, step: t.step, groupId: t.groupId, text: t.text, branchId: t.branchId, trial: t.trial, createdAt: t.createdAt })
      .from(t)
      .where(and(eq(t.classId, classId), eq(t.cleared, false)))
      .orderBy(asc(t.createdAt), asc(t.branchId));
  }

  async listClassBranchIds(runId: string): Promise<Set<string>> {
    await this.ready();
    const rows = await this.db.select({ branchId: schema.classForks.branchId }).from(schema.classForks).where(eq(schema.classForks.runId, runId));
    return new Set(rows.map((row) => row.branchId));
  }

  async resetClass(classId: string): Promise<ClassRecord> {
    await this.ready();
    return this.db.transaction(async (tx) => {
      await this.lockClass(tx, classId);
      await tx.delete(schema.classAnswers).where(eq(schema.classAnswers.classId, classId));
      await tx.delete(schema.classReflections).where(eq(schema.classReflections.classId, classId));
      await tx.update(schema.classForks).set({ cleared: true }).where(eq(schema.classForks.classId, classId));
      const [row] = await tx
        .update(schema.classes)
        .set({ step: 0, revealedSteps: [], version: sql`${schema.classes.version} + 1` })
        .where(eq(schema.classes.id, classId))
        .returning();
      if (!row) throw new AppError("not-found", `No class ${classId}.`);
      return toRecord(row);
    });
  }
}
