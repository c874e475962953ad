import type { DatasetPin } from "./experiment";

/**
 * What changed between the task set an experiment pinned and the one it would run on now, in words
 * for the refusal of `resume`: tasks added, removed or changed (by their per-task hashes), at most
 * five of each named. Null when the pins agree (same overall hash).
 */
export function datasetDifference(pinned: DatasetPin, current: DatasetPin): string | null {
  if (pinned.hash === current.hash) return null;
  const before = Object.keys(pinned.taskHashes);
  const now = Object.keys(current.taskHashes);
  const removed = before.filter((id) => !(id in current.taskHashes));
  const added = now.filter((id) => !(id in pinned.taskHashes));
  const changed = before.filter((id) => id in current.taskHashes && current.taskHashes[id] !== pinned.taskHashes[id]);
  const list = (ids: string[]) => `${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ` and ${ids.length - 5} more` : ""}`;
  const parts: string[] = [];
  if (changed.length > 0) parts.push(`${changed.length} changed (${list(changed)})`);
  if (removed.length > 0) parts.push(`${removed.length} missing (${list(removed)})`);
  if (added.length > 0) parts.push(`${added.length} new (${list(added)})`);
  if (parts.length === 0) parts.push("the same tasks in another order");
  return `tasks ${parts.join(", ")}; pinned ${shortHash(pinned.hash)}, now ${shortHash(current.hash)}`;
}

/** The first 12 hex digits of a content hash, as shown in the UI and the CLI. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}
