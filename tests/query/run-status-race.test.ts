import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventPageResponse, RunDetailResponse, RunStatus } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";
import type { CallActivity } from "@/lib/domain/status";
import { emptyRunEventsCache, mergeEvents, type RunEventsCache } from "@/lib/query/merge-events";
import { afterRunChange } from "@/lib/query/mutations";
import { queryKeys } from "@/lib/query/keys";
import { catchUpRunEvents, parseStatusMessage, receiveStreamEvent, receiveStreamStatus } from "@/lib/query/run-events";
import { CODE_TASK } from "../graph/code-fixtures";
import { EventLog, makeRunConfig } from "../graph/fixtures";

const RUN_ID = "run-1";

/**
 * A code run with "pause after each reflection": trial 1 fails, reflects and
 * pauses (seq 1–`pausedAt`); a person edits the reflection and resumes; trial 2
 * fails, reflects and pauses again (up to `end`) — within ~100 ms on code tasks.
 */
function codeRunPausingTwice() {
  const log = new EventLog();
  log.add("run-start", {
    config: makeRunConfig({ environment: "code", taskId: CODE_TASK.id, task: { ...CODE_TASK }, maxStepsPerTrial: 2, breakpoints: { ...makeRunConfig().breakpoints, afterReflection: true } }),
  });
  const trial = (n: number) => {
    log.add("trial-start", { trial: n, memory: [], evicted: [] });
    log.step(n, 1, "", { text: "def running_max(xs): ...", type: "Implement", argument: "def running_max(xs): ..." }, { text: "Tests failed: …", done: true, answer: "def running_max(xs): ..." });
    log.add("evaluation-end", { trial: n, verdict: "fail", score: 0, feedback: "Tests failed", evaluatorKind: "unit-tests", oracle: false, details: {} });
    log.add("trial-end", { trial: n, outcome: "failure", reason: "internal tests failed" });
    const call = log.call("reflector", n, null, "Reflect", `Lesson ${n}`);
    const reflection = log.add("reflection-end", { trial: n, text: `Lesson ${n}`, callId: call });
    log.add("checkpoint", { trial: n, digest: `d${n}` });
    log.add("run-pause", { reason: "breakpoint", detail: `after the reflection on trial ${n}`, at: `after-reflection:${n}` });
    return reflection;
  };
  const reflection = trial(1);
  const pausedAt = log.events.length;
  log.add("reflection-edit", { reflectionEventId: reflection.id, oldText: "Lesson 1", newText: "Edited lesson", note: null });
  const editedAt = log.events.length;
  log.add("run-resume", { reason: "user", step: false });
  const resumedAt = log.events.length;
  trial(2);
  return { events: log.events, pausedAt, editedAt, resumedAt, end: log.events.length };
}

function detail(status: RunStatus): RunDetailResponse {
  return {
    run: {
      id: RUN_ID,
      createdAt: "2026-11-30T12:00:00.000Z",
      environment: "code",
      taskId: CODE_TASK.id,
      title: "running_max",
      strategy: "reflexion",
      modelId: "demo",
      status,
      activeCall: null,
      setting: null,
      trials: 1,
      outcome: null,
      rootBranchId: "branch-1",
      experiment: null,
    },
  };
}

function page(events: readonly RunEvent[], status: RunStatus, lastSeq: number, activeCall: CallActivity | null = null): EventPageResponse {
  return { events: [...events], status, activeCall, lastSeq, nextAfter: events.at(-1)?.seq ?? 0, more: false };
}

/** The stream's `status` message data, as lib/server/run-event-stream.ts writes it. */
function statusMessage(status: RunStatus, lastSeq: number, activeCall: CallActivity | null = null): string {
  return JSON.stringify({ status, lastSeq, activeCall });
}

const ACTOR_CALL: CallActivity = { role: "actor", trial: 2, step: 1, startedAt: "2026-11-30T12:01:00.000Z", retry: null };

/** `fetch` answering every events request with the next of `pages` (a Response each). */
function serveEventPages(pages: EventPageResponse[]) {
  const fetchMock = vi.fn(async () => {
    const next = pages.shift();
    if (!next) throw new Error("no more pages");
    return new Response(JSON.stringify(next), { status: 200, headers: { "content-type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** A deferred promise, to hold the mutation's catch-up request in flight. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("run status in the query cache: an older status never overwrites a newer one", () => {
  const run = codeRunPausingTwice();
  const upTo = (seq: number) => run.events.filter((event) => event.seq <= seq);
  const between = (after: number, upToSeq: number) => run.events.filter((event) => event.seq > after && event.seq <= upToSeq);
  let client: QueryClient;
  const key = queryKeys.runEvents(RUN_ID, null);
  const cache = () => client.getQueryData<RunEventsCache>(key);
  const stream = (events: readonly RunEvent[]) => {
    for (const event of events) receiveStreamEvent(client, RUN_ID, null, JSON.stringify(event));
  };

  beforeEach(() => {
    client = new QueryClient();
    // The page the run page loaded: paused after trial 1's reflection, then the reflection edit.
    client.setQueryData(key, mergeEvents(emptyRunEventsCache("paused"), upTo(run.editedAt), { status: "paused", seq: run.editedAt, source: "page" }));
    client.setQueryData(queryKeys.run(RUN_ID), detail("paused"));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("keeps the paused status the stream delivered when the older Resume answer (running) arrives afterwards", async () => {
    // The stream is faster than the Resume answer: run-resume (queued, then a worker claims it: running
    // at the same seq), trial 2, run-pause, then `status: paused`.
    stream(between(run.editedAt, run.resumedAt));
    expect(cache()?.status).toBe("paused"); // run-resume alone says nothing: the lease decides queued or running
    receiveStreamStatus(client, RUN_ID, null, statusMessage("queued", run.resumedAt));
    expect(cache()?.status).toBe("queued");
    receiveStreamStatus(client, RUN_ID, null, statusMessage("running", run.resumedAt));
    expect(cache()?.status).toBe("running");
    stream(between(run.resumedAt, run.end));
    receiveStreamStatus(client, RUN_ID, null, statusMessage("paused", run.end));
    expect(cache()?.status).toBe("paused");

    // Now the Resume answer: its summary was read when the request was handled.
    const inFlight = deferred();
    const settled = afterRunChange(client, RUN_ID, null, detail("queued"), () => inFlight.promise);
    expect(cache()?.status).toBe("paused");
    expect(cache()?.statusSeq).toBe(run.end);
    inFlight.resolve();
    await settled;
    expect(cache()?.status).toBe("paused");
    // The summary cache follows the log, not the older answer.
    expect(client.getQueryData<RunDetailResponse>(queryKeys.run(RUN_ID))?.run.status).toBe("paused");
  });

  it("keeps paused when the mutation's catch-up page was read before the run paused again", async () => {
    // The stream had delivered run-resume and the start of trial 2 when the Resume answer arrived.
    const partial = run.resumedAt + 2;
    stream(between(run.editedAt, partial));
    receiveStreamStatus(client, RUN_ID, null, statusMessage("running", run.resumedAt));
    // The catch-up page is computed while trial 2 still runs (status running, no run-pause yet) …
    const stalePage = page(between(partial, run.end - 1), "running", run.end - 1);
    const fetchMock = serveEventPages([stalePage]);
    const settled = afterRunChange(client, RUN_ID, null, detail("running"));
    // … but the stream delivers the rest, with run-pause, before that page is read.
    stream(between(partial, run.end));
    receiveStreamStatus(client, RUN_ID, null, statusMessage("paused", run.end));
    await settled;
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(cache()?.status).toBe("paused");
    expect(cache()?.events.map((event) => event.seq)).toEqual(upTo(run.end).map((event) => event.seq));
    expect(client.getQueryData<RunDetailResponse>(queryKeys.run(RUN_ID))?.run.status).toBe("paused");
  });

  it("still shows running after a Resume whose answer comes first, then paused when the stream delivers run-pause", async () => {
    // The answer arrives before any stream message: the catch-up page brings run-resume.
    serveEventPages([page(between(run.editedAt, run.resumedAt + 1), "running", run.resumedAt + 1, ACTOR_CALL)]);
    await afterRunChange(client, RUN_ID, null, detail("queued"));
    expect(cache()?.status).toBe("running");
    expect(cache()?.activeCall).toEqual(ACTOR_CALL);
    // The summary takes the events cache's status and call in flight, not the older answer's.
    expect(client.getQueryData<RunDetailResponse>(queryKeys.run(RUN_ID))?.run.status).toBe("running");
    expect(client.getQueryData<RunDetailResponse>(queryKeys.run(RUN_ID))?.run.activeCall).toEqual(ACTOR_CALL);
    // The stream replays what the page already had (deduplicated), then the rest.
    stream(between(run.editedAt, run.end));
    expect(cache()?.status).toBe("paused");
    expect(cache()?.activeCall).toBeNull();
    // Its status message (read just before run-pause was sent) does not undo that.
    receiveStreamStatus(client, RUN_ID, null, statusMessage("running", run.end - 1, ACTOR_CALL));
    expect(cache()?.status).toBe("paused");
    expect(cache()?.activeCall).toBeNull();
  });

  it("catchUpRunEvents drops a page status older than the cached one but keeps the page's events", async () => {
    stream(between(run.editedAt, run.end));
    expect(cache()?.status).toBe("paused");
    serveEventPages([page([], "running", run.resumedAt)]);
    await catchUpRunEvents(client, RUN_ID, null);
    expect(cache()?.status).toBe("paused");
  });

  it("keeps the stream's running (and its call in flight) when a page read before the worker claimed the branch arrives later at the same seq", async () => {
    stream(between(run.editedAt, run.resumedAt));
    // The catch-up page is read while the branch still waits in the queue …
    const fetchMock = serveEventPages([page([], "queued", run.resumedAt)]);
    const inFlight = catchUpRunEvents(client, RUN_ID, null);
    // … and answers after the stream said queued, then running with the Actor call (no event marks either).
    receiveStreamStatus(client, RUN_ID, null, statusMessage("queued", run.resumedAt));
    receiveStreamStatus(client, RUN_ID, null, statusMessage("running", run.resumedAt, ACTOR_CALL));
    await inFlight;
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(cache()?.status).toBe("running");
    expect(cache()?.activeCall).toEqual(ACTOR_CALL);
  });

  it("a pause from another tab: pausing at its request, paused at its run-pause even when the stream's stamp lags", () => {
    // Resume first, so trial 2 runs.
    stream(between(run.editedAt, run.resumedAt));
    receiveStreamStatus(client, RUN_ID, null, statusMessage("running", run.resumedAt, ACTOR_CALL));
    // Another tab (or the CLI) asked to pause: the stream reports pausing while the call runs on.
    receiveStreamStatus(client, RUN_ID, null, statusMessage("pausing", run.resumedAt, ACTOR_CALL));
    expect(cache()?.status).toBe("pausing");
    expect(cache()?.activeCall).toEqual(ACTOR_CALL);
    // The stream read `paused` just after sending seq end-2, and stamped it so; run-pause (seq end) follows.
    stream(between(run.resumedAt, run.end - 2));
    receiveStreamStatus(client, RUN_ID, null, statusMessage("paused", run.end - 2));
    expect(cache()?.status).toBe("paused");
    stream(between(run.end - 2, run.end));
    // A catch-up page read before the pause took effect (pausing, at a seq between the two) arrives last.
    client.setQueryData<RunEventsCache>(key, (existing) =>
      existing ? mergeEvents(existing, [], { status: "pausing", seq: run.end - 1, activeCall: ACTOR_CALL, source: "page" }) : existing,
    );
    expect(cache()?.status).toBe("paused");
    expect(cache()?.statusSeq).toBe(run.end);
    expect(cache()?.activeCall).toBeNull();
  });
});

describe("mergeEvents status rules", () => {
  const run = codeRunPausingTwice();
  const upTo = (seq: number) => run.events.filter((event) => event.seq <= seq);
  const loaded = mergeEvents(emptyRunEventsCache("running"), upTo(run.pausedAt), { status: "paused", seq: run.pausedAt, source: "page" });
  const resumedEvents = run.events.slice(run.pausedAt, run.resumedAt);

  it("takes paused, ended and error from the event that fixes it, at its seq", () => {
    const fromEvents = mergeEvents(emptyRunEventsCache("queued"), upTo(run.pausedAt));
    expect(fromEvents.status).toBe("paused");
    expect(fromEvents.statusSeq).toBe(run.pausedAt);
  });

  it("leaves statuses the lease decides to the server: run-resume alone keeps the shown status", () => {
    const resumed = mergeEvents(loaded, resumedEvents);
    expect(resumed.status).toBe("paused");
    expect(resumed.statusSeq).toBe(run.pausedAt);
    expect(mergeEvents(resumed, [], { status: "queued", seq: run.resumedAt, source: "stream" }).status).toBe("queued");
  });

  it("applies a stream report from the same or a newer seq, a page report only from a newer seq", () => {
    const queued = mergeEvents(mergeEvents(loaded, resumedEvents), [], { status: "queued", seq: run.resumedAt, source: "stream" });
    const running = mergeEvents(queued, [], { status: "running", seq: run.resumedAt, activeCall: ACTOR_CALL, source: "stream" });
    expect(running.status).toBe("running");
    expect(running.activeCall).toEqual(ACTOR_CALL);
    expect(mergeEvents(running, [], { status: "queued", seq: run.resumedAt, source: "page" })).toBe(running);
    expect(mergeEvents(running, [], { status: "interrupted", seq: run.resumedAt + 1, source: "page" }).status).toBe("interrupted");
    expect(mergeEvents(running, [], { status: "paused", seq: run.resumedAt - 1, source: "stream" })).toBe(running);
  });

  it("a replayed run-pause (already cached) does not bring paused back", () => {
    const running = mergeEvents(mergeEvents(loaded, resumedEvents), [], { status: "running", seq: run.resumedAt, source: "stream" });
    expect(mergeEvents(running, upTo(run.resumedAt))).toBe(running);
  });

  it("returns the same object when neither events nor status changed", () => {
    expect(mergeEvents(loaded, upTo(3), { status: "running", seq: 2, source: "page" })).toBe(loaded);
    expect(mergeEvents(loaded, [], { status: "paused", seq: run.pausedAt, activeCall: null, source: "stream" })).toBe(loaded);
  });
});

describe("parseStatusMessage", () => {
  it("reads the stream's { status, lastSeq, activeCall } as a stream report", () => {
    expect(parseStatusMessage(statusMessage("paused", 12))).toEqual({ status: "paused", seq: 12, activeCall: null, source: "stream" });
    expect(parseStatusMessage(statusMessage("cancelling", 3, ACTOR_CALL))).toEqual({ status: "cancelling", seq: 3, activeCall: ACTOR_CALL, source: "stream" });
    expect(parseStatusMessage(JSON.stringify({ status: "queued", lastSeq: 1 }))).toEqual({ status: "queued", seq: 1, activeCall: null, source: "stream" });
  });
  it("ignores anything else: no seq, an unknown status, a malformed call, not JSON", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(parseStatusMessage(JSON.stringify("running"))).toBeNull();
    expect(parseStatusMessage(JSON.stringify({ status: "ended" }))).toBeNull();
    expect(parseStatusMessage("paused")).toBeNull();
    expect(parseStatusMessage(JSON.stringify({ status: "nonsense", lastSeq: 1 }))).toBeNull();
    expect(parseStatusMessage(JSON.stringify({ status: "running", lastSeq: 1, activeCall: { role: "judge", trial: 1, step: 1, startedAt: "x" } }))).toBeNull();
    expect(warn).toHaveBeenCalledTimes(5);
    warn.mockRestore();
  });
});
