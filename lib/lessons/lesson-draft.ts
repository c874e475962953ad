import type { z } from "zod";
import type { RunEvent } from "@/lib/domain/events";
import type { EnvironmentId } from "@/lib/domain/config";
import { checkLessonOnLog } from "./check-lesson";
import { lessonSchema, type Lesson, type LessonStep } from "./lesson-schema";
import type { LogPosition } from "./log-positions";

/**
 * A lesson being written on the authoring page (components/lessons/authoring): the lesson as the
 * schema shapes it (fields may be empty or wrong while typing), its introduction and the run whose
 * log the selects offer. Validation gives issues by step and field, from lessonSchema first, then
 * from the log (check-lesson.ts). Pure.
 */
export interface LessonDraft {
  lesson: Lesson;
  introduction: string;
  /** The run whose log the page reads (the stored run, or the run a built-in lesson plays). */
  runId: string;
}

/** One problem of a draft, where it is (`steps.1.narration`) and in words naming the step and field. */
export interface DraftIssue {
  /** The path joined with dots: the key a field looks its problems up by. */
  key: string;
  /** `Step 2 (Title) · narration`, or `Lesson · id`. */
  where: string;
  message: string;
}

/** `Why the river matters!` → `why-the-river-matters` (a lesson id: lower-case words joined by hyphens), at most 60 characters. */
export function slugOf(title: string): string {
  return (
    title
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/, "") || "my-lesson"
  );
}

/** A new step at `position` (the run's cursor, or a select's choice): a title from the position, empty narration. */
export function stepAt(position: LogPosition): LessonStep {
  return { title: position.label.split(":")[0]?.trim() || "A step", narration: "", cursor: { ...position.selector }, spotlight: [] };
}

/** A first draft over run `run`: one step at `position` (when the log has one). */
export function newDraft(run: { id: string; title: string; environment: EnvironmentId }, position: LogPosition | null): LessonDraft {
  const title = `Lesson: ${run.title}`.slice(0, 120);
  return {
    runId: run.id,
    introduction: "",
    lesson: { id: slugOf(run.title), title, summary: "", family: run.environment, minutes: 10, run: { kind: "stored", runId: run.id }, steps: position ? [stepAt(position)] : [] },
  };
}

/** `steps` with the step at `index` moved by `delta` (−1 up, +1 down); unchanged at the ends. */
export function moveStep<T>(steps: readonly T[], index: number, delta: -1 | 1): T[] {
  const target = index + delta;
  if (index < 0 || index >= steps.length || target < 0 || target >= steps.length) return [...steps];
  const next = [...steps];
  const [moved] = next.splice(index, 1);
  if (moved !== undefined) next.splice(target, 0, moved);
  return next;
}

function whereOf(lesson: Lesson, path: ReadonlyArray<PropertyKey>): string {
  if (path[0] === "steps" && typeof path[1] === "number") {
    const step = lesson.steps[path[1]];
    const field = path.slice(2).map(String).join(" · ");
    return `Step ${path[1] + 1}${step?.title ? ` (${step.title})` : ""}${field ? ` · ${field}` : ""}`;
  }
  return `Lesson · ${path.map(String).join(" · ") || "(whole)"}`;
}

/**
 * A schema issue as an author reads it: an empty or too long text, too few or too many items, in
 * words that say what to do; any other issue keeps zod's message.
 */
export function plainMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "too_small" && issue.origin === "string") return Number(issue.minimum) <= 1 ? "is empty: write it." : `is too short: write at least ${String(issue.minimum)} characters.`;
  if (issue.code === "too_big" && issue.origin === "string") return `is too long: at most ${String(issue.maximum)} characters.`;
  if (issue.code === "too_small" && issue.origin === "array") return `needs at least ${String(issue.minimum)}.`;
  if (issue.code === "too_big" && issue.origin === "array") return `takes at most ${String(issue.maximum)}.`;
  return issue.message;
}

/**
 * Every problem of `draft`: the lesson schema's issues, then (when the schema accepts it and the
 * log is loaded) what the log does not have. Empty when the lesson can be saved.
 */
export function draftIssues(draft: LessonDraft, events: readonly RunEvent[] | null): DraftIssue[] {
  const parsed = lessonSchema.safeParse(draft.lesson);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({ key: issue.path.map(String).join("."), where: whereOf(draft.lesson, issue.path), message: plainMessage(issue) }));
  }
  const issues: DraftIssue[] = [];
  if (draft.lesson.steps.length === 0) issues.push({ key: "steps", where: "Lesson · steps", message: "Add at least one step." });
  if (!events) return issues;
  for (const problem of checkLessonOnLog(parsed.data, events)) {
    issues.push({ key: problem.path.map(String).join("."), where: whereOf(draft.lesson, problem.path), message: problem.message });
  }
  return issues;
}

/** The issues whose key is `key` or inside it (`steps.1` holds `steps.1.narration`). */
export function issuesAt(issues: readonly DraftIssue[], key: string): DraftIssue[] {
  return issues.filter((issue) => issue.key === key || issue.key.startsWith(`${key}.`));
}
