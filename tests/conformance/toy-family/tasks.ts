import { z } from "zod";
import { toyTaskSchema, type ToyTask } from "./environment";

/** The toy family's built-in tasks. */
export const builtinToyTasks: readonly ToyTask[] = [
  { id: "toy-01", question: "What is 6 times 7?", answer: "42" },
  { id: "toy-02", question: "What is (12 + 8) / 4?", answer: "5" },
];

/** Reads a JSON array of toy tasks; broken records are problems, the rest load. */
export function importToyTasks(content: string): { tasks: ToyTask[]; problems: string[] } {
  const records = z.array(z.unknown()).parse(JSON.parse(content));
  const tasks: ToyTask[] = [];
  const problems: string[] = [];
  records.forEach((record, index) => {
    const parsed = toyTaskSchema.safeParse(record);
    if (parsed.success) tasks.push(parsed.data);
    else problems.push(`record ${index + 1}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  });
  return { tasks, problems };
}
