import { and, eq } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { z } from "zod";
import { humanGradeSchema, type HumanGrade } from "@/lib/domain/judge-grades";
import { compareGrades, type GradeStore } from "./grade-store";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

const criteriaJson = z.record(z.string(), z.enum(["pass", "fail"]));

/**
 * The SQLite {@link GradeStore}: the `human_grades` table of the app's database file (its own
 * connection, WAL mode; migrations applied on open). A grade of a trial already graded replaces
 * the row (upsert on the unique run/branch/trial index).
 */
export class SqliteGradeStore implements GradeStore {
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

  /** Runs raw SQL (tests insert the run a grade refers to: `run_id` is a foreign key). */
  execForTests(statement: string): void {
    this.client.exec(statement);
  }

  async saveGrade(grade: HumanGrade): Promise<HumanGrade> {
    const valid = humanGradeSchema.parse(grade);
    const row = { ...valid, criteria: valid.criteria === null ? null : JSON.stringify(valid.criteria) };
    this.db
      .insert(schema.humanGrades)
      .values(row)
      .onConflictDoUpdate({
        target: [schema.humanGrades.runId, schema.humanGrades.branchId, schema.humanGrades.trial],
        set: { verdict: row.verdict, criteria: row.criteria, note: row.note, judgeVerdict: row.judgeVerdict, judgeScore: row.judgeScore, gradedAt: row.gradedAt, taskId: row.taskId },
      })
      .run();
    const table = schema.humanGrades;
    const stored = this.db.select().from(table).where(and(eq(table.runId, valid.runId), eq(table.branchId, valid.branchId), eq(table.trial, valid.trial))).get();
    if (!stored) throw new Error("human_grades: the grade was not stored");
    return fromRow(stored);
  }

  async listGrades(): Promise<HumanGrade[]> {
    return this.db.select().from(schema.humanGrades).all().map(fromRow).sort(compareGrades);
  }
}

function fromRow(row: typeof schema.humanGrades.$inferSelect): HumanGrade {
  return humanGradeSchema.parse({ ...row, criteria: row.criteria === null ? null : criteriaJson.parse(JSON.parse(row.criteria)) });
}
