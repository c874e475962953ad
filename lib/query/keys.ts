import type { EnvironmentId } from "@/lib/domain/config";

/** The cache slot of a branch: its id, or `root` when the URL names none. */
export function branchKey(branch: string | null | undefined): string {
  return branch ?? "root";
}

/**
 * Query keys. Run detail, run events and the run list have separate roots so
 * invalidating one never refetches another (refetching a run's whole event log
 * by accident would be wasteful). Events are cached per branch path:
 * `["run-events", runId]` is the prefix of every branch of a run.
 */
export const queryKeys = {
  models: () => ["models"] as const,
  environments: () => ["environments"] as const,
  /** All imported task sets (every family); the picker filters by family. */
  taskSets: () => ["task-sets"] as const,
  tasks: (environment: EnvironmentId, taskSet: string) => ["tasks", environment, taskSet] as const,
  runList: () => ["run-list"] as const,
  run: (runId: string) => ["run", runId] as const,
  /** A branch path's events (`branch` null = the root branch). */
  runEvents: (runId: string, branch: string | null = null) => ["run-events", runId, branchKey(branch)] as const,
  branches: (runId: string) => ["run-branches", runId] as const,
  /**
   * The text the model call in flight on a branch has streamed so far
   * (lib/query/live-call.ts). Its own root: transient, never part of the event log cache.
   */
  liveCall: (runId: string, branch: string | null = null) => ["run-live-call", runId, branchKey(branch)] as const,
};
