import type { RunEvent } from "@/lib/domain/events";
import type { Lesson } from "./lesson-schema";
import { failedTrialsOf } from "./log-positions";
import { derivePrediction } from "./predictions";
import { LessonResolveError, resolveCursor, resolveNode } from "./resolve-lesson";

/**
 * Checks a valid lesson against the log of the run it plays: every step's cursor, spotlight
 * nodes and question must be found in it, and a practice must be at a failed trial. Pure: the
 * authoring page shows the problems inline as they happen; the lesson service refuses to save a
 * lesson over a stored run that has any.
 */

/** One problem, named by its place in the lesson (`steps.2.question`) and in words an author can act on. */
export interface LessonLogProblem {
  /** Path in the lesson, as zod writes one: `["steps", 1, "cursor"]`. */
  path: Array<string | number>;
  message: string;
}

function problemOf(error: unknown): string {
  if (error instanceof LessonResolveError) return error.message;
  throw error;
}

/** Every problem of `lesson` on `events` (the played branch's whole log), in step order; empty when it plays. */
export function checkLessonOnLog(lesson: Lesson, events: readonly RunEvent[]): LessonLogProblem[] {
  const problems: LessonLogProblem[] = [];
  const failed = new Set(failedTrialsOf(events));
  lesson.steps.forEach((step, index) => {
    try {
      resolveCursor(events, step.cursor);
    } catch (error) {
      problems.push({ path: ["steps", index, "cursor"], message: problemOf(error) });
    }
    step.spotlight.forEach((selector, position) => {
      try {
        resolveNode(events, selector);
      } catch (error) {
        problems.push({ path: ["steps", index, "spotlight", position], message: problemOf(error) });
      }
    });
    if (step.question) {
      try {
        derivePrediction(events, step.question);
      } catch (error) {
        problems.push({ path: ["steps", index, "question"], message: problemOf(error) });
      }
    }
    if (step.practice && !failed.has(step.practice.trial)) {
      problems.push({ path: ["steps", index, "practice"], message: `Trial ${step.practice.trial} did not fail: a practice asks for a reflection on a failed trial (${failed.size > 0 ? `failed: ${[...failed].sort((a, b) => a - b).join(", ")}` : "this run has none"}).` });
    }
  });
  return problems;
}

/** The problems as one line: `step 2 (title), cursor: message; …`. */
export function describeLogProblems(lesson: Lesson, problems: readonly LessonLogProblem[]): string {
  return problems
    .map((problem) => {
      const [, index, field] = problem.path;
      const step = typeof index === "number" ? lesson.steps[index] : undefined;
      return `step ${typeof index === "number" ? index + 1 : "?"}${step ? ` (${step.title})` : ""}, ${String(field ?? "")}: ${problem.message}`;
    })
    .join("; ");
}
