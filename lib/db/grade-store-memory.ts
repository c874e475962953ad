import type { HumanGrade } from "@/lib/domain/judge-grades";
import { compareGrades, type GradeStore } from "./grade-store";

/** A deep enough copy: the criteria record is the only nested object of a grade. */
const copy = (grade: HumanGrade): HumanGrade => ({ ...grade, criteria: grade.criteria ? { ...grade.criteria } : null });

/**
 * The in-memory {@link GradeStore} (tests, `createServerContext({ store })`). Like the SQL
 * adapters' upsert, saving a trial's grade again keeps the first grade's id; it returns copies.
 */
export class MemoryGradeStore implements GradeStore {
  private readonly grades = new Map<string, HumanGrade>();

  async saveGrade(grade: HumanGrade): Promise<HumanGrade> {
    const key = `${grade.runId}\0${grade.branchId}\0${grade.trial}`;
    const stored = copy({ ...grade, id: this.grades.get(key)?.id ?? grade.id });
    this.grades.set(key, stored);
    return copy(stored);
  }

  async listGrades(): Promise<HumanGrade[]> {
    return [...this.grades.values()].map(copy).sort(compareGrades);
  }
}
