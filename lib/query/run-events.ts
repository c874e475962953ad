"use client";

import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { z } from "zod";
import { eventPageResponseSchema, runStatusSchema, type RunStatus } from "@/lib/domain/api";
import { runEventSchema, type RunEvent } from "@/lib/domain/events";
import { callActivitySchema, type CallActivity } from "@/lib/domain/status";
import { readEventPages } from "./event-pages";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { applyLiveCallMessage, parseLiveCallMessage, settleLiveCall, type LiveCallText } from "./live-call";
import { isTerminalStatus, mergeEvents, type RunEventsCache, type StatusReport } from "./merge-events";
import { branchRoute, liveCallQuery, runEventsQuery } from "./queries";

/** State of the live connection, for a small indicator: `live` while the event stream is open. */
export type StreamConnection = "idle" | "connecting" | "live" | "reconnecting" | "closed";

const EMPTY_EVENTS: RunEvent[] = [];
const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];

/**
 * Merges events (and a status report) into a branch's cache and drops the live
 * text of a call whose events just arrived; returns the status before and after.
 */
function appendToCache(
  client: QueryClient,
  runId: string,
  branch: string | null,
  events: readonly RunEvent[],
  report?: StatusReport,
): { before: RunStatus | undefined; after: RunStatus | undefined } {
  const key = queryKeys.runEvents(runId, branch);
  const cached = client.getQueryData<RunEventsCache>(key);
  const before = cached?.status;
  client.setQueryData<RunEventsCache>(key, (existing) => (existing ? mergeEvents(existing, events, report) : existing));
  // Only events new to this tab settle the live text (a replayed old run-pause must not clear the call in flight).
  const fresh = cached ? events.filter((event) => event.seq > cached.lastSeq) : events;
  if (fresh.length > 0) {
    client.setQueryData<LiveCallText | null>(queryKeys.liveCall(runId, branch), (live) => settleLiveCall(live ?? null, fresh));
  }
  return { before, after: client.getQueryData<RunEventsCache>(key)?.status };
}

/** The run's summary and branch list change with a branch's status: refetch them. */
function invalidateSummaries(client: QueryClient, runId: string): void {
  void client.invalidateQueries({ queryKey: queryKeys.run(runId) });
  void client.invalidateQueries({ queryKey: queryKeys.runList() });
  void client.invalidateQueries({ queryKey: queryKeys.branches(runId) });
}

/**
 * Fetches the events after the newest one cached (`GET …/events?after=<lastSeq>`, page by page
 * until caught up) and merges them in with the page's status (at the page's `lastSeq`). Used
 * after a mutation and when a stream ends, so nothing is missed even if the
 * stream was closed at that moment.
 */
export async function catchUpRunEvents(client: QueryClient, runId: string, branch: string | null = null): Promise<void> {
  const cached = client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch));
  if (!cached) return;
  let changed = false;
  await readEventPages(
    (after) => fetchJson(branchRoute(runId, "events", branch, `after=${after}`), eventPageResponseSchema),
    cached.lastSeq,
    (page) => {
      // The page's status was read when the server answered: the stream may have delivered a newer one meanwhile.
      const { before, after } = appendToCache(client, runId, branch, page.events, { status: page.status, seq: page.lastSeq, activeCall: page.activeCall, source: "page" });
      if (before !== after) changed = true;
    },
  );
  if (changed) void client.invalidateQueries({ queryKey: queryKeys.branches(runId) });
}

const statusMessageSchema = z.object({
  status: runStatusSchema,
  lastSeq: z.number().int().nonnegative(),
  activeCall: callActivitySchema.nullable().default(null),
});

/**
 * The stream's `status` message: `{ status, lastSeq, activeCall }` JSON
 * (lib/domain/api.ts) as a stream {@link StatusReport} at `lastSeq`; null (and
 * a warning) for anything else.
 */
export function parseStatusMessage(data: string): StatusReport | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    console.warn("[run-events] ignored a status message that is not JSON", data);
    return null;
  }
  const parsed = statusMessageSchema.safeParse(json);
  if (!parsed.success) {
    console.warn(`[run-events] ignored a status message that does not match the schema:\n${z.prettifyError(parsed.error)}`);
    return null;
  }
  return { status: parsed.data.status, seq: parsed.data.lastSeq, activeCall: parsed.data.activeCall, source: "stream" };
}

/**
 * The stream's `run-event` message: parsed with the event schema and merged
 * into the branch's cache (deduplicated by seq, in seq order). An event that
 * fixes the status by itself (run-pause, run-end, run-error) sets it at its seq.
 */
export function receiveStreamEvent(client: QueryClient, runId: string, branch: string | null, data: string): void {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    console.warn("[run-events] ignored a message that is not JSON", data);
    return;
  }
  const parsed = runEventSchema.safeParse(json);
  if (!parsed.success) {
    console.warn(`[run-events] ignored an event that does not match the schema:\n${z.prettifyError(parsed.error)}`);
    return;
  }
  const lastSeq = client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch))?.lastSeq ?? 0;
  const { before, after } = appendToCache(client, runId, branch, [parsed.data]);
  if (before !== after) invalidateSummaries(client, runId);
  // A hole in the sequence (should not happen on one connection): fetch what is missing.
  if (parsed.data.seq > lastSeq + 1) void catchUpRunEvents(client, runId, branch).catch(() => undefined);
}

/** The stream's `status` message: applied unless the cache holds a status reported at a newer seq (see `mergeEvents`). */
export function receiveStreamStatus(client: QueryClient, runId: string, branch: string | null, data: string): void {
  const report = parseStatusMessage(data);
  if (!report) return;
  const { before, after } = appendToCache(client, runId, branch, [], report);
  // The summary (status, trial count, outcome) and the branch list changed with it.
  if (before !== after) invalidateSummaries(client, runId);
}

/**
 * The stream's `live-call` message (lib/domain/live-call.ts): the branch's
 * streamed text under {@link queryKeys.liveCall}, never in the event cache.
 */
export function receiveLiveCall(client: QueryClient, runId: string, branch: string | null, data: string): void {
  const message = parseLiveCallMessage(data);
  if (!message) return;
  client.setQueryData<LiveCallText | null>(queryKeys.liveCall(runId, branch), (live) => applyLiveCallMessage(live ?? null, message));
}

/** Forgets a branch's live text (the stream closed or reconnected: deltas may have been missed). */
function clearLiveCall(client: QueryClient, runId: string, branch: string | null): void {
  if (client.getQueryData(queryKeys.liveCall(runId, branch)) != null) client.setQueryData(queryKeys.liveCall(runId, branch), null);
}

/**
 * A branch path's event log, live (`branch` null = the root branch), with the
 * status the server reports for it and the model call in flight.
 *
 * Loads `GET /api/runs/:id/events?after=0[&branch=]` into the query cache, then follows
 * `GET /api/runs/:id/stream?after=<lastSeq>[&branch=]` with an EventSource: each
 * `run-event` message is merged into the cache ({@link receiveStreamEvent}),
 * `status` messages set the status and the call in flight
 * ({@link receiveStreamStatus}; a report never replaces one from a newer seq),
 * and `live-call` messages keep the streamed text apart ({@link receiveLiveCall},
 * read it with {@link useLiveCall}). On a dropped connection it reconnects from
 * the newest seq it has (with backoff); it stops following once the branch has
 * ended or failed.
 */
export function useRunEvents(
  runId: string,
  branch: string | null = null,
): {
  events: RunEvent[];
  status: RunStatus | null;
  /** The model call a worker is waiting on (as of the shown status), or null. */
  activeCall: CallActivity | null;
  connection: StreamConnection;
  isPending: boolean;
  error: Error | null;
} {
  const client = useQueryClient();
  const query = useQuery(runEventsQuery(runId, branch));
  const [connection, setConnection] = useState<StreamConnection>("idle");
  const loaded = query.isSuccess;
  const status = query.data?.status ?? null;
  const follow = loaded && status !== null && !isTerminalStatus(status);

  useEffect(() => {
    if (!follow) return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let attempts = 0;
    let disposed = false;

    const open = () => {
      if (disposed) return;
      const after = client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch))?.lastSeq ?? 0;
      setConnection(attempts === 0 ? "connecting" : "reconnecting");
      // Deltas sent while we were away are lost: start the live text afresh (marked as joined late).
      clearLiveCall(client, runId, branch);
      // The browser also sends Last-Event-ID on its own retries; `after` covers our manual ones.
      source = new EventSource(branchRoute(runId, "stream", branch, `after=${after}`));
      source.onopen = () => {
        attempts = 0;
        setConnection("live");
      };
      source.addEventListener("run-event", (message: MessageEvent<string>) => receiveStreamEvent(client, runId, branch, message.data));
      source.addEventListener("status", (message: MessageEvent<string>) => receiveStreamStatus(client, runId, branch, message.data));
      source.addEventListener("live-call", (message: MessageEvent<string>) => receiveLiveCall(client, runId, branch, message.data));
      const retry = () => {
        source?.close();
        source = null;
        if (disposed) return;
        const current = client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch))?.status;
        if (current && isTerminalStatus(current)) {
          setConnection("closed");
          return;
        }
        const delay = RECONNECT_DELAYS_MS[Math.min(attempts, RECONNECT_DELAYS_MS.length - 1)] ?? 10_000;
        attempts += 1;
        setConnection("reconnecting");
        timer = setTimeout(open, delay);
      };
      // The server reports its own failures as `stream-error` and then closes.
      source.addEventListener("stream-error", retry);
      source.onerror = retry;
    };

    open();
    return () => {
      disposed = true;
      if (timer) clearTimeout(timer);
      source?.close();
      clearLiveCall(client, runId, branch);
      // A final catch-up: events published right before the end may not have been delivered yet.
      void catchUpRunEvents(client, runId, branch).catch(() => undefined);
      setConnection("closed");
    };
  }, [client, runId, branch, follow]);

  return {
    events: query.data?.events ?? EMPTY_EVENTS,
    status,
    activeCall: query.data?.activeCall ?? null,
    connection: follow ? connection : loaded ? "closed" : "idle",
    isPending: query.isPending,
    error: query.error,
  };
}

/**
 * The text the model call in flight on the branch has streamed so far (null:
 * none, or the call's events have arrived). Written by {@link useRunEvents}'s
 * stream; token deltas reach only tabs watching the process that drives the call.
 */
export function useLiveCall(runId: string, branch: string | null = null): LiveCallText | null {
  return useQuery(liveCallQuery(runId, branch)).data;
}
