import type { EnvironmentId } from "@/lib/domain/config";

/**
 * Query keys. Run detail, run events and the run list have separate roots so
 * invalidating one never refetches another (refetching a run's whole event log
 * by accident would be wasteful).
 */
export const queryKeys = {
  models: () => ["models"] as const,
  environments: () => ["environments"] as const,
  /** All imported task sets (every family); the picker filters by family. */
  taskSets: () => ["task-sets"] as const,
  tasks: (environment: EnvironmentId, taskSet: string) => ["tasks", environment, taskSet] as const,
  runList: () => ["run-list"] as const,
  run: (runId: string) => ["run", runId] as const,
  runEvents: (runId: string) => ["run-events", runId] as const,
};
