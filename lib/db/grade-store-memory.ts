import type { HumanGrade } from "@/lib/domain/judge-grades";
import { compareGrades, type GradeStore } from "./grade-store";

/** The in-memory {@link GradeStore} (tests, `createServerContext({ store })`). */
export class MemoryGradeStore implements GradeStore {
  private readonly grades = new Map<string, HumanGrade>();

  async saveGrade(grade: HumanGrade): Promise<HumanGrade> {
    const key = `${grade.runId}\0${grade.branchId}\0${grade.trial}`;
    const stored = { ...grade, criteria: grade.criteria ? { ...grade.criteria } : null };
    this.grades.set(key, stored);
    return { ...stored };
  }

  async listGrades(): Promise<HumanGrade[]> {
    return [...this.grades.values()].map((grade) => ({ ...grade })).sort(compareGrades);
  }
}
