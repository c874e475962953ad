/**
 * The only client code that talks to the server: fetch + zod (schemas from
 * lib/domain/api.ts), query-option factories, mutations, and the SSE
 * subscription that appends a run's events into the query cache.
 */
export { makeQueryClient } from "./client";
export { ApiRequestError, fetchJson, isNotFound } from "./fetch-json";
export { branchKey, queryKeys } from "./keys";
export { emptyRunEventsCache, isTerminalStatus, mergeEvents, statusSetBy, type RunEventsCache, type StatusReport } from "./merge-events";
export {
  useCancelRun,
  useCreateRun,
  useEditRun,
  useForkRun,
  usePauseRun,
  useResumeRun,
  useSetBreakpoints,
  useUploadTaskSet,
  type ForkRequestInput,
} from "./mutations";
export { branchesQuery, environmentsQuery, modelsQuery, runEventsQuery, runListQuery, runQuery, taskSetsQuery, tasksQuery } from "./queries";
export { catchUpRunEvents, parseStatusMessage, receiveStreamEvent, receiveStreamStatus, useRunEvents, type StreamConnection } from "./run-events";
