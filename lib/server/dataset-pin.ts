import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { DatasetPin } from "@/lib/domain/experiment";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * Pins an experiment's tasks by content (lib/domain/experiment.ts `datasetPinSchema`): the SHA-256
 * of the RFC 8785 canonical JSON (the `canonicalize` package) of the tasks in `taskIds` order, and
 * each task's own hash (first 16 hex digits) so a refusal can name what changed. A task id not in
 * `tasks` counts as a task whose content is `null`.
 * @param tasks the task set's tasks by id, as stored (the JSON each run copies into its config).
 */
export function pinTasks(tasks: ReadonlyMap<string, unknown>, taskIds: readonly string[]): DatasetPin {
  const canonical = taskIds.map((id) => canonicalize({ id, task: tasks.get(id) ?? null }) ?? "null");
  const taskHashes: Record<string, string> = {};
  taskIds.forEach((id, index) => (taskHashes[id] = sha256(canonical[index]!).slice(0, 16)));
  return { hash: sha256(`[${canonical.join(",")}]`), tasks: taskIds.length, taskHashes };
}
