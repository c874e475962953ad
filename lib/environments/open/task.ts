import { z } from "zod";
import { taskIdSchema } from "@/lib/domain/ids";
import { AppError } from "@/lib/domain/errors";
import { describeIssues } from "@/lib/domain/describe-issues";
import { rubricSchema } from "@/lib/domain/judge";

/**
 * An open task: a prompt with no exact answer, optional notes for the judge,
 * and the rubric the LLM judge scores the answer by (lib/domain/judge.ts). Written by us; the
 * shape is ours (no public dataset has it).
 */
export const openTaskSchema = z.object({
  id: taskIdSchema.pipe(z.string().max(120)),
  /** One line for lists; defaults to the prompt's first line. */
  title: z.string().trim().min(1).max(200).optional(),
  /** What the Actor is asked to do (may span lines, e.g. a diff to describe). */
  prompt: z.string().trim().min(1, { message: "prompt is empty" }).max(20_000),
  /** Facts or expectations for the judge only (never in the Actor's prompt). */
  referenceNotes: z.string().trim().max(10_000).optional(),
  rubric: rubricSchema,
});
export type OpenTask = z.infer<typeof openTaskSchema>;

/**
 * Validates an open task snapshot (`RunConfig.task`).
 * @throws AppError `invalid-dataset` naming every field that is wrong.
 */
export function parseOpenTask(json: unknown): OpenTask {
  const result = openTaskSchema.safeParse(json);
  if (!result.success) throw new AppError("invalid-dataset", `Not a valid open task: ${describeIssues(result.error.issues)}`, { cause: result.error });
  return result.data;
}

/** The task's one-line title: its `title`, else the prompt's first line (cut at 120 characters). */
export function openTaskTitle(task: OpenTask): string {
  if (task.title) return task.title;
  const first = task.prompt.split("\n")[0]?.trim() ?? task.id;
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}

/** The rubric in one line for lists: `accuracy ×3 · plain-words ×2 … · pass at 0.80`. */
export function rubricSummary(task: OpenTask): string {
  return `${task.rubric.criteria.map((criterion) => `${criterion.id} ×${criterion.weight}`).join(" · ")} · pass at weighted score ≥ ${task.rubric.passThreshold.toFixed(2)}`;
}
