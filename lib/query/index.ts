/**
 * The only client code that talks to the server: fetch + zod (schemas from
 * lib/domain/api.ts), query-option factories, mutations, and the SSE
 * subscription that appends a run's events into the query cache and keeps the
 * live text of the model call in flight beside it.
 */
export { makeQueryClient } from "./client";
export { ApiRequestError, fetchJson, isNotFound } from "./fetch-json";
export { branchKey, queryKeys } from "./keys";
export { applyLiveCallMessage, callInFlightView, parseLiveCallMessage, settleLiveCall, type LiveCallText } from "./live-call";
export {
  emptyRunEventsCache,
  isLiveStatus,
  isTerminalStatus,
  mergeEvents,
  statusFixedBy,
  type RunEventsCache,
  type StatusReport,
} from "./merge-events";
export {
  useCancelRun,
  useCreateRun,
  useEditRun,
  useForkRun,
  usePauseRun,
  useResumeRun,
  useSetBreakpoints,
  useUploadTaskSet,
  useDeleteTaskSet,
  type ForkRequestInput,
} from "./mutations";
export { branchesQuery, environmentsQuery, liveCallQuery, modelsQuery, runEventsQuery, runListQuery, runQuery, taskSetsQuery, tasksQuery } from "./queries";
export {
  catchUpRunEvents,
  parseStatusMessage,
  receiveLiveCall,
  receiveStreamEvent,
  receiveStreamStatus,
  useLiveCall,
  useRunEvents,
  type StreamConnection,
} from "./run-events";
