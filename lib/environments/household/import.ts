import { AppError } from "@/lib/domain/errors";
import { describeIssues, householdTaskSchema, type HouseholdTask } from "./task";
import { parseTranscript, sceneFromTranscript } from "./transcript";

/**
 * Importing household task sets. Two shapes are accepted:
 * - a JSON array of tasks in our schema (task.ts), e.g. an exported or
 *   generated set;
 * - a JSON object of ALFWorld transcripts `{ name: transcript }` (the shape of
 *   shared/data/alfworld/react-alfworld.json): each becomes a task whose scene
 *   is what the transcript reveals (transcript.ts), so the transcript's actions
 *   solve it.
 * Broken entries are reported in `problems` and the rest load.
 */

/** What {@link importHouseholdTaskSet} returns. */
export interface HouseholdImportResult {
  tasks: HouseholdTask[];
  /** One message per skipped entry, naming its index or name and what is wrong. */
  problems: string[];
}

/**
 * Parses a household task set (see the module comment). Duplicate ids keep the
 * first task.
 *
 * @throws AppError `invalid-dataset` when the content is not JSON, or neither an
 *   array nor an object of transcript strings.
 */
export function importHouseholdTaskSet(content: string): HouseholdImportResult {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (error) {
    throw new AppError("invalid-dataset", `The household task file is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const tasks: HouseholdTask[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const keep = (task: HouseholdTask, label: string) => {
    if (seen.has(task.id)) {
      problems.push(`${label}: duplicate task id "${task.id}", skipped`);
      return;
    }
    seen.add(task.id);
    tasks.push(task);
  };

  if (Array.isArray(data)) {
    data.forEach((entry, index) => {
      const id = typeof entry === "object" && entry !== null && "id" in entry ? ` (${String((entry as { id: unknown }).id)})` : "";
      const result = householdTaskSchema.safeParse(entry);
      if (result.success) keep(result.data, `entry ${index}${id}`);
      else problems.push(`entry ${index}${id}: ${describeIssues(result.error.issues)}`);
    });
    return { tasks, problems };
  }

  if (typeof data === "object" && data !== null) {
    for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
      if (typeof value !== "string") {
        problems.push(`${name}: not a transcript string`);
        continue;
      }
      try {
        keep(sceneFromTranscript(parseTranscript(value), name).task, name);
      } catch (error) {
        problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { tasks, problems };
  }

  throw new AppError(
    "invalid-dataset",
    "A household task file must be a JSON array of tasks, or a JSON object mapping names to ALFWorld transcripts.",
  );
}
