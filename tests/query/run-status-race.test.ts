import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { EventPageResponse, RunDetailResponse, RunStatus } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";
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
    },
  };
}

function page(events: readonly RunEvent[], status: RunStatus, lastSeq: number): EventPageResponse {
  return { events: [...events], status, activeCall: null, lastSeq };
}

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
    client.setQueryData(key, mergeEvents(emptyRunEventsCache("paused"), upTo(run.editedAt), { status: "paused", seq: run.editedAt }));
    client.setQueryData(queryKeys.run(RUN_ID), detail("paused"));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("keeps the paused status the stream delivered when the older Resume answer (running) arrives afterwards", async () => {
    // The stream is faster than the Resume answer: run-resume, trial 2, run-pause, then `status: paused`.
    stream(between(run.editedAt, run.resumedAt));
    receiveStreamStatus(client, RUN_ID, null, JSON.stringify({ status: "running", lastSeq: run.resumedAt }));
    expect(cache()?.status).toBe("running");
    stream(between(run.resumedAt, run.end));
    receiveStreamStatus(client, RUN_ID, null, JSON.stringify({ status: "paused", lastSeq: run.end }));
    expect(cache()?.status).toBe("paused");

    // Now the Resume answer: its summary was read when the request was handled.
    const inFlight = deferred();
    const settled = afterRunChange(client, RUN_ID, null, detail("running"), () => inFlight.promise);
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
    receiveStreamStatus(client, RUN_ID, null, JSON.stringify({ status: "running", lastSeq: run.resumedAt }));
    // The catch-up page is computed while trial 2 still runs (status running, no run-pause yet) …
    const stalePage = page(between(partial, run.end - 1), "running", run.end - 1);
    const fetchMock = serveEventPages([stalePage]);
    const settled = afterRunChange(client, RUN_ID, null, detail("running"));
    // … but the stream delivers the rest, with run-pause, before that page is read.
    stream(between(partial, run.end));
    receiveStreamStatus(client, RUN_ID, null, JSON.stringify({ status: "paused", lastSeq: run.end }));
    await settled;
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(cache()?.status).toBe("paused");
    expect(cache()?.events.map((event) => event.seq)).toEqual(upTo(run.end).map((event) => event.seq));
    expect(client.getQueryData<RunDetailResponse>(queryKeys.run(RUN_ID))?.run.status).toBe("paused");
  });

  it("still shows running after a Resume whose answer comes first, then paused when the stream delivers run-pause", async () => {
    // The answer arrives before any stream message: the catch-up page brings run-resume.
    serveEventPages([page(between(run.editedAt, run.resumedAt + 1), "running", run.resumedAt + 1)]);
    await afterRunChange(client, RUN_ID, null, detail("running"));
    expect(cache()?.status).toBe("running");
    expect(client.getQueryData<RunDetailResponse>(queryKeys.run(RUN_ID))?.run.status).toBe("running");
    // The stream replays what the page already had (deduplicated), then the rest.
    stream(between(run.editedAt, run.end));
    expect(cache()?.status).toBe("paused");
    // Its status message (read just before run-pause was sent) does not undo that.
    receiveStreamStatus(client, RUN_ID, null, JSON.stringify({ status: "running", lastSeq: run.end - 1 }));
    expect(cache()?.status).toBe("paused");
  });

  it("catchUpRunEvents drops a page status older than the cached one but keeps the page's events", async () => {
    stream(between(run.editedAt, run.end));
    expect(cache()?.status).toBe("paused");
    serveEventPages([page([], "running", run.resumedAt)]);
    await catchUpRunEvents(client, RUN_ID, null);
    expect(cache()?.status).toBe("paused");
  });
});

describe("mergeEvents status rules", () => {
  const run = codeRunPausingTwice();
  const upTo = (seq: number) => run.events.filter((event) => event.seq <= seq);
  const loaded = mergeEvents(emptyRunEventsCache("running"), upTo(run.pausedAt), { status: "paused", seq: run.pausedAt });

  it("takes the status from the newest event that sets one", () => {
    expect(loaded.status).toBe("paused");
    expect(loaded.statusSeq).toBe(run.pausedAt);
    const resumed = mergeEvents(loaded, run.events.slice(run.pausedAt, run.resumedAt));
    expect(resumed.status).toBe("running");
    expect(resumed.statusSeq).toBe(run.resumedAt);
  });

  it("applies a reported status from the same or a newer seq (e.g. interrupted: no event marks it)", () => {
    const resumed = mergeEvents(loaded, run.events.slice(run.pausedAt, run.resumedAt));
    const interrupted = mergeEvents(resumed, [], { status: "interrupted", seq: run.resumedAt });
    expect(interrupted.status).toBe("interrupted");
    expect(mergeEvents(resumed, [], { status: "running", seq: run.pausedAt - 1 })).toBe(resumed);
  });

  it("treats a status without a seq as reported at the newest cached event", () => {
    const merged = mergeEvents(loaded, [], "error");
    expect(merged.status).toBe("error");
    expect(merged.statusSeq).toBe(run.pausedAt);
  });

  it("returns the same object when neither events nor status changed", () => {
    expect(mergeEvents(loaded, upTo(3), { status: "running", seq: 2 })).toBe(loaded);
  });
});

describe("parseStatusMessage", () => {
  it("reads the stream's { status, lastSeq }", () => {
    expect(parseStatusMessage(JSON.stringify({ status: "paused", lastSeq: 12 }))).toEqual({ status: "paused", seq: 12 });
  });
  it("accepts a bare status, as JSON or as text", () => {
    expect(parseStatusMessage(JSON.stringify("running"))).toBe("running");
    expect(parseStatusMessage(JSON.stringify({ status: "ended" }))).toBe("ended");
    expect(parseStatusMessage("paused")).toBe("paused");
    expect(parseStatusMessage(JSON.stringify({ status: "nonsense", lastSeq: 1 }))).toBeNull();
  });
});
