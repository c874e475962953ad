"use client";

import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { eventPageResponseSchema, runStatusSchema, type RunStatus } from "@/lib/domain/api";
import { runEventSchema, type RunEvent } from "@/lib/domain/events";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { isTerminalStatus, mergeEvents, type RunEventsCache, type StatusReport } from "./merge-events";
import { branchRoute, runEventsQuery } from "./queries";

/** State of the live connection, for a small indicator. */
export type StreamConnection = "idle" | "connecting" | "open" | "reconnecting" | "closed";

const EMPTY_EVENTS: RunEvent[] = [];
const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];

/** Merges events (and a status) into a branch's cache; returns the status before and after. */
function appendToCache(
  client: QueryClient,
  runId: string,
  branch: string | null,
  events: readonly RunEvent[],
  status?: RunStatus | StatusReport,
): { before: RunStatus | undefined; after: RunStatus | undefined } {
  const key = queryKeys.runEvents(runId, branch);
  const before = client.getQueryData<RunEventsCache>(key)?.status;
  client.setQueryData<RunEventsCache>(key, (existing) => (existing ? mergeEvents(existing, events, status) : existing));
  return { before, after: client.getQueryData<RunEventsCache>(key)?.status };
}

/** The run's summary and branch list change with a branch's status: refetch them. */
function invalidateSummaries(client: QueryClient, runId: string): void {
  void client.invalidateQueries({ queryKey: queryKeys.run(runId) });
  void client.invalidateQueries({ queryKey: queryKeys.runList() });
  void client.invalidateQueries({ queryKey: queryKeys.branches(runId) });
}

function setStatus(client: QueryClient, runId: string, branch: string | null, status: RunStatus | StatusReport): void {
  const { before, after } = appendToCache(client, runId, branch, [], status);
  if (before !== after) {
    // The summary (status, trial count, outcome) and the branch list changed with it.
    invalidateSummaries(client, runId);
  }
}

/**
 * Fetches the events after the newest one cached (`GET …/events?after=<lastSeq>`)
 * and merges them in. Used after a mutation and when a stream ends, so nothing
 * is missed even if the stream was closed at that moment.
 */
export async function catchUpRunEvents(client: QueryClient, runId: string, branch: string | null = null): Promise<void> {
  const cached = client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch));
  if (!cached) return;
  const page = await fetchJson(branchRoute(runId, "events", branch, `after=${cached.lastSeq}`), eventPageResponseSchema);
  // The page's status was read when the server answered: the stream may have delivered a newer one meanwhile.
  const { before, after } = appendToCache(client, runId, branch, page.events, { status: page.status, seq: page.lastSeq });
  if (before !== after) void client.invalidateQueries({ queryKey: queryKeys.branches(runId) });
}

/**
 * The `status` message's data: `{ status, lastSeq }` (the newest seq the
 * stream had sent when it read the status), or a bare JSON status string. A
 * status without a seq is taken as at the newest event cached: the stream
 * sends a status after the events it accounts for.
 */
export function parseStatusMessage(data: string): RunStatus | StatusReport | null {
  try {
    const json: unknown = JSON.parse(data);
    const direct = runStatusSchema.safeParse(json);
    if (direct.success) return direct.data;
    if (typeof json === "object" && json !== null && "status" in json) {
      const nested = runStatusSchema.safeParse(json.status);
      if (nested.success) {
        const seq = "lastSeq" in json ? json.lastSeq : undefined;
        return typeof seq === "number" && Number.isInteger(seq) && seq >= 0 ? { status: nested.data, seq } : nested.data;
      }
    }
  } catch {
    const raw = runStatusSchema.safeParse(data.trim());
    if (raw.success) return raw.data;
  }
  return null;
}

/**
 * The stream's `run-event` message: parsed with the event schema and merged
 * into the branch's cache (deduplicated by seq, in seq order). An event that
 * sets the status (run-pause, run-resume, run-end, …) sets it at its seq.
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
    console.warn("[run-events] ignored an event that does not match the schema", parsed.error.issues);
    return;
  }
  const lastSeq = client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch))?.lastSeq ?? 0;
  const { before, after } = appendToCache(client, runId, branch, [parsed.data]);
  if (before !== after) invalidateSummaries(client, runId);
  // A hole in the sequence (should not happen on one connection): fetch what is missing.
  if (parsed.data.seq > lastSeq + 1) void catchUpRunEvents(client, runId, branch).catch(() => undefined);
}

/** The stream's `status` message: applied unless the cache already holds a status from a newer seq. */
export function receiveStreamStatus(client: QueryClient, runId: string, branch: string | null, data: string): void {
  const next = parseStatusMessage(data);
  if (next) setStatus(client, runId, branch, next);
}

/**
 * A branch path's event log, live (`branch` null = the root branch).
 *
 * Loads `GET /api/runs/:id/events?after=0[&branch=]` into the query cache, then follows
 * `GET /api/runs/:id/stream?after=<lastSeq>[&branch=]` with an EventSource: each
 * `run-event` message is merged into the cache ({@link receiveStreamEvent}) and
 * `status` messages update the status ({@link receiveStreamStatus}); a status
 * never replaces one from a newer seq. On a dropped connection it reconnects from the newest seq it has
 * (with backoff); it stops following once the run has ended or failed.
 */
export function useRunEvents(
  runId: string,
  branch: string | null = null,
): {
  events: RunEvent[];
  status: RunStatus | null;
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
      // The browser also sends Last-Event-ID on its own retries; `after` covers our manual ones.
      source = new EventSource(branchRoute(runId, "stream", branch, `after=${after}`));
      source.onopen = () => {
        attempts = 0;
        setConnection("open");
      };
      source.addEventListener("run-event", (message: MessageEvent<string>) => receiveStreamEvent(client, runId, branch, message.data));
      source.addEventListener("status", (message: MessageEvent<string>) => receiveStreamStatus(client, runId, branch, message.data));
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
      // A final catch-up: events published right before the end may not have been delivered yet.
      void catchUpRunEvents(client, runId, branch).catch(() => undefined);
      setConnection("closed");
    };
  }, [client, runId, branch, follow]);

  return {
    events: query.data?.events ?? EMPTY_EVENTS,
    status,
    connection: follow ? connection : loaded ? "closed" : "idle",
    isPending: query.isPending,
    error: query.error,
  };
}
