import { queryOptions } from "@tanstack/react-query";
import {
  branchListResponseSchema,
  environmentsResponseSchema,
  eventPageResponseSchema,
  modelsResponseSchema,
  runDetailResponseSchema,
  runListResponseSchema,
  taskListResponseSchema,
  taskSetListResponseSchema,
} from "@/lib/domain/api";
import type { EnvironmentId } from "@/lib/domain/config";
import { readEventPages } from "./event-pages";
import { fetchJson, retryUnlessClientError } from "./fetch-json";
import { queryKeys } from "./keys";
import { isLiveStatus } from "@/lib/domain/status";
import type { LiveCallText } from "./live-call";
import { emptyRunEventsCache, mergeEvents, type RunEventsCache } from "./merge-events";

const runPath = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`;

/**
 * A per-run route (`/api/runs/:id/<route>`) on a branch: `?branch=<id>` is added
 * when a branch is named (the server acts on the root branch without it), and
 * `query` (e.g. `after=3`) is appended.
 */
function branchRoute(runId: string, route: string, branch: string | null, query?: string): string {
  const params = new URLSearchParams(query);
  if (branch) params.set("branch", branch);
  const search = params.toString();
  return `${runPath(runId)}/${route}${search ? `?${search}` : ""}`;
}

/** `GET /api/models`: the models the server can use, the demo model flagged `scripted`. */
export const modelsQuery = () =>
  queryOptions({
    queryKey: queryKeys.models(),
    queryFn: ({ signal }) => fetchJson("/api/models", modelsResponseSchema, { signal }),
    staleTime: 5 * 60_000,
    retry: retryUnlessClientError,
  });

/** `GET /api/environments`: the task families the server offers. */
export const environmentsQuery = () =>
  queryOptions({
    queryKey: queryKeys.environments(),
    queryFn: ({ signal }) => fetchJson("/api/environments", environmentsResponseSchema, { signal }),
    staleTime: 5 * 60_000,
    retry: retryUnlessClientError,
  });

/**
 * `GET /api/task-sets`: the imported task sets of every family (uploaded from
 * any browser or imported with the CLI), newest first. Refetched when the tab
 * regains focus, so a set imported from a terminal meanwhile shows up.
 */
export const taskSetsQuery = () =>
  queryOptions({
    queryKey: queryKeys.taskSets(),
    queryFn: ({ signal }) => fetchJson("/api/task-sets", taskSetListResponseSchema, { signal }),
    refetchOnWindowFocus: true,
    retry: retryUnlessClientError,
  });

/** `GET /api/tasks?env=…&taskSet=…`: the tasks of the built-in set or an uploaded one. */
export const tasksQuery = (environment: EnvironmentId, taskSet: string) =>
  queryOptions({
    queryKey: queryKeys.tasks(environment, taskSet),
    queryFn: ({ signal }) =>
      fetchJson(`/api/tasks?env=${encodeURIComponent(environment)}&taskSet=${encodeURIComponent(taskSet)}`, taskListResponseSchema, {
        signal,
      }),
    staleTime: 5 * 60_000,
    retry: retryUnlessClientError,
  });

/** `GET /api/runs`: recent runs. Polls every 3 s while any of them is running. */
export const runListQuery = () =>
  queryOptions({
    queryKey: queryKeys.runList(),
    queryFn: ({ signal }) => fetchJson("/api/runs", runListResponseSchema, { signal }),
    retry: retryUnlessClientError,
    refetchInterval: (query) => (query.state.data?.runs.some((run) => isLiveStatus(run.status)) ? 3_000 : false),
  });

/** `GET /api/runs/:runId`: the run's summary (title, strategy, effective Actor model, root branch status, call in flight). */
export const runQuery = (runId: string) =>
  queryOptions({
    queryKey: queryKeys.run(runId),
    queryFn: ({ signal }) => fetchJson(runPath(runId), runDetailResponseSchema, { signal }),
    retry: retryUnlessClientError,
  });

/**
 * `GET /api/runs/:runId/events?after=<seq>[&branch=<id>]`, page after page: the branch path's whole
 * log so far (the parent's events up to the fork, `branch-start`, then its
 * own). Kept fresh by {@link useRunEvents}'s stream, never refetched on focus.
 */
export const runEventsQuery = (runId: string, branch: string | null = null) =>
  queryOptions({
    queryKey: queryKeys.runEvents(runId, branch),
    queryFn: async ({ signal, client }): Promise<RunEventsCache> => {
      // Events the stream delivered while these requests were in flight must survive a refetch.
      let cache = client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch)) ?? null;
      // Page by page (bounded responses, decision 0042): a long run is never one huge JSON.
      await readEventPages(
        (after) => fetchJson(branchRoute(runId, "events", branch, `after=${after}`), eventPageResponseSchema, { signal }),
        0,
        (page) => {
          // A page's status is kept only if it is not older than the one shown (mergeEvents).
          cache = mergeEvents(cache ?? emptyRunEventsCache(page.status), page.events, { status: page.status, seq: page.lastSeq, activeCall: page.activeCall, source: "page" });
        },
      );
      if (!cache) throw new Error(`No events page was read for run ${runId}; reload the page.`);
      return cache;
    },
    // mergeEvents already keeps identity; a deep compare of long prompts per message would be wasted work.
    structuralSharing: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: retryUnlessClientError,
  });

/**
 * `GET /api/runs/:runId/branches`: the run's branches, root first, each with its
 * own status and live/cached call counts. Polls every 2 s while any branch runs.
 */
export const branchesQuery = (runId: string) =>
  queryOptions({
    queryKey: queryKeys.branches(runId),
    queryFn: ({ signal }) => fetchJson(`${runPath(runId)}/branches`, branchListResponseSchema, { signal }),
    retry: retryUnlessClientError,
    // Fast while a branch is live; slowly otherwise, so a fork made in another tab shows up.
    refetchInterval: (query) => (query.state.data?.branches.some((branch) => isLiveStatus(branch.status)) ? 2_000 : 10_000),
  });

/**
 * The text the model call in flight on a branch has streamed so far (null:
 * none). Never fetched: {@link useRunEvents}'s stream writes it
 * (`live-call` messages) and drops it when the call's events arrive.
 */
export const liveCallQuery = (runId: string, branch: string | null = null) =>
  queryOptions({
    queryKey: queryKeys.liveCall(runId, branch),
    queryFn: (): LiveCallText | null => null,
    initialData: null,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    structuralSharing: false,
  });

export { branchRoute, runPath };
