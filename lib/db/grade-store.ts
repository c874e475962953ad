import type { HumanGrade } from "@/lib/domain/judge-grades";

/**
 * Storage of people's grades of judged trials (table `human_grades`, migration
 * 0008). One grade per (run, branch, trial): saving again replaces it and keeps the first
 * grade's id. Adapters: SQLite (./grade-store-sqlite.ts), in-memory (./grade-store-memory.ts)
 * and PostgreSQL (./pg/pg-small-stores.ts); one contract suite runs on all three
 * (tests/judge/grade-store-contract.ts).
 */
export interface GradeStore {
  /** Stores `grade`, replacing any grade of the same run, branch and trial; returns what is stored. */
  saveGrade(grade: HumanGrade): Promise<HumanGrade>;
  /** Every grade, newest first. */
  listGrades(): Promise<HumanGrade[]>;
}

/** Sort order of {@link GradeStore.listGrades}: newest `gradedAt` first, then id. */
export function compareGrades(a: HumanGrade, b: HumanGrade): number {
  return b.gradedAt.localeCompare(a.gradedAt) || a.id.localeCompare(b.id);
}
