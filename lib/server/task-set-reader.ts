import { AppError } from "@/lib/domain/errors";
import { MAX_TASK_SET_INFLATED_MB, MAX_TASK_SET_TASKS } from "@/lib/domain/workload-limits";
import type { EnvironmentEntry } from "@/lib/environments/registry";

/**
 * Reading an uploaded task set file within the task-set limits (lib/domain/workload-limits.ts). A
 * file with one record per line (JSON Lines, the code family's format) is counted before it is
 * parsed, so 300,000 records are refused in milliseconds instead of parsed for seconds; a JSON array
 * is counted once parsed. Parsing is one synchronous call on at most {@link MAX_TASK_SET_INFLATED_MB}
 * (the upload route inflates no more), and the event loop is handed back before and after it.
 */

const MIB = 1024 * 1024;

/** The task-set limits as a sentence, for the refusals and the docs. */
export const TASK_SET_LIMITS_TEXT = `a task set holds at most ${MAX_TASK_SET_TASKS.toLocaleString("en-US")} tasks and ${MAX_TASK_SET_INFLATED_MB} MB of decompressed text`;

/** The refusal of a set past {@link MAX_TASK_SET_TASKS}: the count, the limit and how to split it. */
export function tooManyTasks(name: string, count: number, counted: "records" | "tasks"): AppError {
  return new AppError(
    "too-large",
    `${name} holds ${count.toLocaleString("en-US")} ${counted}, more than a task set may: ${TASK_SET_LIMITS_TEXT}. Nothing was stored. Split the file into sets of at most ${MAX_TASK_SET_TASKS.toLocaleString("en-US")} tasks (e.g. \`head -n ${MAX_TASK_SET_TASKS} file.jsonl\`) and upload the part you mean to run.`,
  );
}

/** The refusal of a set file past {@link MAX_TASK_SET_INFLATED_MB} decompressed (or as sent). */
export function taskSetTooLarge(name: string): AppError {
  return new AppError(
    "too-large",
    `${name} is larger than ${MAX_TASK_SET_INFLATED_MB} MB once decompressed: ${TASK_SET_LIMITS_TEXT}. Nothing was stored. Split the file into smaller task sets and upload the part you mean to run.`,
  );
}

/** The task-set size limit in bytes of decompressed text. */
export const MAX_TASK_SET_INFLATED_BYTES = MAX_TASK_SET_INFLATED_MB * MIB;

/**
 * Non-blank lines of `content` when it is line-oriented (does not start with `[`), else null. Scans
 * with indexOf and stops one past `stopAt`, so a huge file costs no more than the limit.
 */
export function countLineRecords(content: string, stopAt: number): number | null {
  const start = content.search(/\S/);
  if (start < 0 || content[start] === "[") return null;
  let count = 0;
  let from = start;
  while (from < content.length && count <= stopAt) {
    const end = content.indexOf("\n", from);
    const stop = end < 0 ? content.length : end;
    if (/\S/.test(content.slice(from, Math.min(stop, from + 64)))) count += 1;
    from = stop + 1;
  }
  return count;
}

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A task set file's tasks and load problems, within the limits.
 * @throws AppError("too-large") past {@link MAX_TASK_SET_TASKS} tasks or {@link MAX_TASK_SET_INFLATED_MB} MB, naming both;
 *   as the family's loader for a malformed file.
 */
export async function readTaskSet(entry: EnvironmentEntry, name: string, content: string): Promise<{ tasks: Array<Record<string, unknown>>; problems: string[] }> {
  if (Buffer.byteLength(content, "utf8") > MAX_TASK_SET_INFLATED_BYTES) throw taskSetTooLarge(name);
  const lines = countLineRecords(content, MAX_TASK_SET_TASKS);
  if (lines !== null && lines > MAX_TASK_SET_TASKS) throw tooManyTasks(name, lines, "records");
  await yieldNow();
  const read = entry.importTaskSet(content);
  await yieldNow();
  if (read.tasks.length > MAX_TASK_SET_TASKS) throw tooManyTasks(name, read.tasks.length, "tasks");
  return read;
}
