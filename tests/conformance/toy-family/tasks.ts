import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { toyTaskSchema, type ToyTask } from "./environment";

/** The toy family's built-in tasks. */
export const builtinToyTasks: readonly ToyTask[] = [
  { id: "toy-01", question: "What is 6 times 7?", answer: "42" },
  { id: "toy-02", question: "What is (12 + 8) / 4?", answer: "5" },
];

/**
 * Reads a JSON array of toy tasks; broken records are problems, the rest load.
 * @throws AppError("invalid-dataset") when the file is not a JSON array (what importTaskSet promises).
 */
export function importToyTasks(content: string): { tasks: ToyTask[]; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw new AppError("invalid-dataset", `A toy task file is a JSON array of { id, question, answer }; this one is not JSON (${(error as Error).message}).`);
  }
  const array = z.array(z.unknown()).safeParse(parsed);
  if (!array.success) throw new AppError("invalid-dataset", "A toy task file is a JSON array of { id, question, answer }; this one is not an array.");
  const records = array.data;
  const tasks: ToyTask[] = [];
  const problems: string[] = [];
  records.forEach((record, index) => {
    const parsed = toyTaskSchema.safeParse(record);
    if (parsed.success) tasks.push(parsed.data);
    else problems.push(`record ${index + 1}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  });
  return { tasks, problems };
}
