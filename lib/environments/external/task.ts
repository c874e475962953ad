import { z } from "zod";
import { AppError } from "@/lib/domain/errors";

/**
 * The task of an imported trace: what the outside agent was asked, as its trace records it. It is
 * a record, not a runnable task: nothing here can act in the agent's world.
 */
export const externalTaskSchema = z.object({
  /** A stable id of the task attempted (the trace's own, or a hash of its input). */
  id: z.string().min(1),
  /** A human title: the agent or workflow name, the Inspect task and sample. */
  title: z.string().min(1),
  /** The task as the agent received it, or null when the trace does not say. */
  input: z.string().nullable(),
  /** The expected answer when the source records one (Inspect `target`), else null. */
  target: z.string().nullable(),
  /** The format the trace came in (`otlp`, `inspect`, `langsmith`, `langfuse`). */
  sourceFormat: z.string().min(1),
  /** Always true: the task is a recorded-only stand-in (no world, no tests). */
  recordedOnly: z.literal(true),
});
export type ExternalTask = z.infer<typeof externalTaskSchema>;

/** @throws AppError("invalid-dataset") saying which field is wrong. */
export function parseExternalTask(json: unknown): ExternalTask {
  const parsed = externalTaskSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("invalid-dataset", `An imported trace's task needs id, title, input, target, sourceFormat and recordedOnly: ${issue ? `${issue.path.join(".") || "task"}: ${issue.message}` : "invalid"}.`);
  }
  return parsed.data;
}

/**
 * The family's one built-in task: the shape of an imported trace's task, so the template library
 * can list and check the placeholders of this family's Self-Reflection template and preview it.
 * Never run (the family's runs are only imported).
 */
export const builtinExternalTasks: ReadonlyArray<Record<string, unknown>> = [
  {
    id: "sample-trace-task",
    title: "A tool-using agent's attempt (sample)",
    input: "Which river flows through the capital of the country that hosted the 2016 Summer Olympics?",
    target: null,
    sourceFormat: "otlp",
    recordedOnly: true,
  },
];
