import { AppError } from "@/lib/domain/errors";
import { describeIssues } from "@/lib/domain/describe-issues";
import { openTaskSchema, type OpenTask } from "./task";

/** What {@link loadOpenTasks} returns: the tasks that validated, and one message per skipped record. */
export interface OpenTaskImport {
  tasks: OpenTask[];
  problems: string[];
}

/** The records of a task file: a JSON array, `{ "tasks": [...] }`, one task object, or JSON Lines (one object per line). */
function recordsOf(content: string): Array<{ label: string; value: unknown } | { label: string; error: string }> {
  const text = content.replace(/^\uFEFF/, "").trim();
  if (text === "") throw new AppError("invalid-dataset", "The open task file is empty. Give a JSON array of tasks or JSON Lines (one task per line).");
  try {
    const data: unknown = JSON.parse(text);
    const list = Array.isArray(data)
      ? data
      : typeof data === "object" && data !== null && "tasks" in data && Array.isArray(data.tasks)
        ? data.tasks
        : [data];
    return list.map((value: unknown, index: number) => ({ label: `record ${index + 1}`, value }));
  } catch {
    // Not one JSON document: read it as JSON Lines.
  }
  const lines = text.split(/\r?\n/);
  const records: Array<{ label: string; value: unknown } | { label: string; error: string }> = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      records.push({ label: `line ${index + 1}`, value: JSON.parse(line) });
    } catch (error) {
      records.push({ label: `line ${index + 1}`, error: `not JSON (${error instanceof Error ? error.message : String(error)})` });
    }
  });
  if (records.length > 0 && records.every((record) => "error" in record)) {
    throw new AppError("invalid-dataset", "The open task file is neither JSON nor JSON Lines. Give a JSON array of tasks or one task object per line.");
  }
  return records;
}

/**
 * Parses an open task file (see {@link recordsOf} for the layouts). Broken records are reported in
 * `problems` (naming the record and every wrong field) and the rest load; a repeated id keeps the first.
 *
 * @throws AppError `invalid-dataset` when the file is empty or is neither JSON nor JSON Lines.
 */
export function loadOpenTasks(content: string): OpenTaskImport {
  const tasks: OpenTask[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const record of recordsOf(content)) {
    if ("error" in record) {
      problems.push(`${record.label}: ${record.error}`);
      continue;
    }
    const parsed = openTaskSchema.safeParse(record.value);
    if (!parsed.success) {
      problems.push(`${record.label}: ${describeIssues(parsed.error.issues)}`);
      continue;
    }
    if (seen.has(parsed.data.id)) {
      problems.push(`${record.label}: duplicate task id "${parsed.data.id}", skipped`);
      continue;
    }
    seen.add(parsed.data.id);
    tasks.push(parsed.data);
  }
  return { tasks, problems };
}
