import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LiveCallMessage } from "@/lib/domain/live-call";
import { queryKeys } from "@/lib/query/keys";
import { applyLiveCallMessage, callInFlightView, parseLiveCallMessage, settleLiveCall, type LiveCallText } from "@/lib/query/live-call";
import { emptyRunEventsCache, mergeEvents, type RunEventsCache } from "@/lib/query/merge-events";
import { receiveLiveCall, receiveStreamEvent } from "@/lib/query/run-events";
import { twoTrialReflexionRun } from "../graph/fixtures";

const RUN_ID = "run-1";
const STARTED = "2026-11-30T12:00:10.000Z";

/** The live-call messages of one call, as lib/server/worker-pool.ts publishes them. */
function call(role: "actor" | "reflector", trial: number, step: number | null, startedAt = STARTED) {
  const base = { branchId: "branch-1", role, trial, step, startedAt };
  return {
    start: (): LiveCallMessage => ({ kind: "call-start", ...base }),
    delta: (text: string): LiveCallMessage => ({ kind: "token-delta", ...base, text }),
    end: (): LiveCallMessage => ({ kind: "call-end", ...base }),
  };
}

function play(messages: readonly LiveCallMessage[], from: LiveCallText | null = null): LiveCallText | null {
  return messages.reduce<LiveCallText | null>((live, message) => applyLiveCallMessage(live, message), from);
}

describe("applyLiveCallMessage: the streamed text of the call in flight", () => {
  const actor = call("actor", 2, 1);

  it("starts empty, appends each delta in order, and keeps the text when the call ends", () => {
    const started = play([actor.start()]);
    expect(started).toEqual({ role: "actor", trial: 2, step: 1, startedAt: STARTED, text: "", ended: false, joinedLate: false });
    const streaming = play([actor.delta("Thought: the river "), actor.delta("is the Avon.")], started);
    expect(streaming?.text).toBe("Thought: the river is the Avon.");
    const ended = applyLiveCallMessage(streaming, actor.end());
    expect(ended).toMatchObject({ text: "Thought: the river is the Avon.", ended: true });
  });

  it("marks a text whose beginning this tab did not see (joined mid-call)", () => {
    expect(play([actor.delta("Avon.")])).toMatchObject({ text: "Avon.", joinedLate: true, ended: false });
  });

  it("replaces an earlier call's text when the next call starts", () => {
    const first = play([actor.start(), actor.delta("first"), actor.end()]);
    const next = call("actor", 2, 2, "2026-11-30T12:00:20.000Z");
    expect(play([next.start(), next.delta("second")], first)).toMatchObject({ step: 2, text: "second", ended: false, joinedLate: false });
  });

  it("ignores the end of another call and empty deltas (same object back)", () => {
    const live = play([actor.start(), actor.delta("text")]);
    expect(applyLiveCallMessage(live, call("actor", 2, 1, "2026-11-30T11:00:00.000Z").end())).toBe(live);
    expect(applyLiveCallMessage(live, actor.delta(""))).toBe(live);
    expect(applyLiveCallMessage(null, actor.end())).toBeNull();
  });
});

describe("settleLiveCall: the log takes over", () => {
  const run = twoTrialReflexionRun();
  const events = run.log.events;
  const trial2Call = events.find((event) => event.type === "model-call-end" && event.data.trial === 2 && event.data.role === "actor");
  const reflectorCall = events.find((event) => event.type === "model-call-end" && event.data.role === "reflector");
  const runEnd = events.find((event) => event.type === "run-end");
  const live: LiveCallText = { role: "actor", trial: 2, step: 1, startedAt: STARTED, text: "Arthur's", ended: true, joinedLate: false };

  it("drops the text when the same call's model-call-end arrives", () => {
    expect(trial2Call).toBeDefined();
    expect(settleLiveCall(live, [trial2Call!])).toBeNull();
  });

  it("keeps it for another call's events", () => {
    expect(settleLiveCall(live, [reflectorCall!])).toBe(live);
    expect(settleLiveCall(live, events.slice(0, 3))).toBe(live);
  });

  it("drops it when the branch stops (a cancelled call leaves no model-call-end)", () => {
    expect(settleLiveCall(live, [runEnd!])).toBeNull();
  });
});

describe("live-call messages in the query client", () => {
  const run = twoTrialReflexionRun();
  const events = run.log.events;
  const beforeTrial2Step = events.slice(0, run.marks.afterTrial2Start);
  const trial2Step = events.slice(run.marks.afterTrial2Start, run.marks.afterTrial2Start + 4);
  const actor = call("actor", 2, 1);
  let client: QueryClient;
  const eventsKey = queryKeys.runEvents(RUN_ID, null);
  const liveOf = () => client.getQueryData<LiveCallText | null>(queryKeys.liveCall(RUN_ID, null));
  const send = (message: LiveCallMessage) => receiveLiveCall(client, RUN_ID, null, JSON.stringify(message));

  beforeEach(() => {
    client = new QueryClient();
    client.setQueryData(eventsKey, mergeEvents(emptyRunEventsCache("running"), beforeTrial2Step, { status: "running", seq: run.marks.afterTrial2Start, source: "page" }));
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("keeps the streamed text under its own key, never in the event log cache", () => {
    const cached = client.getQueryData<RunEventsCache>(eventsKey);
    send(actor.start());
    send(actor.delta("Arthur's Magazine started "));
    send(actor.delta("in 1844."));
    expect(liveOf()).toMatchObject({ trial: 2, step: 1, text: "Arthur's Magazine started in 1844.", ended: false });
    expect(client.getQueryData<RunEventsCache>(eventsKey)).toBe(cached);
  });

  it("keeps the text after call-end until the step's events arrive, then drops it", () => {
    send(actor.start());
    send(actor.delta("Arthur's Magazine"));
    send(actor.end());
    expect(liveOf()).toMatchObject({ text: "Arthur's Magazine", ended: true });
    const [callEnd, ...rest] = trial2Step;
    receiveStreamEvent(client, RUN_ID, null, JSON.stringify(callEnd));
    expect(liveOf()).toBeNull();
    for (const event of rest) receiveStreamEvent(client, RUN_ID, null, JSON.stringify(event));
    expect(client.getQueryData<RunEventsCache>(eventsKey)?.lastSeq).toBe(run.marks.afterTrial2Start + 4);
  });

  it("an event replayed from before the call (a reconnect) does not drop the text", () => {
    send(actor.start());
    send(actor.delta("Arthur's"));
    const oldEnd = events.find((event) => event.type === "model-call-end" && event.data.trial === 1 && event.data.step === 1);
    receiveStreamEvent(client, RUN_ID, null, JSON.stringify(oldEnd));
    expect(liveOf()).toMatchObject({ text: "Arthur's" });
  });

  it("ignores a message that does not match the schema", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    send(actor.start());
    receiveLiveCall(client, RUN_ID, null, JSON.stringify({ kind: "token-delta", branchId: "branch-1", role: "actor", trial: 2, step: 1, startedAt: STARTED }));
    receiveLiveCall(client, RUN_ID, null, "not json");
    expect(liveOf()).toMatchObject({ text: "" });
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe("callInFlightView: the call the graph draws as running", () => {
  const activeCall = { role: "actor" as const, trial: 1, step: 2, startedAt: STARTED, retry: null };

  it("prefers the streamed text, also after the call returned", () => {
    const live = play([call("actor", 1, 2).start(), call("actor", 1, 2).delta("Search"), call("actor", 1, 2).end()]);
    expect(callInFlightView(live, null)).toBe(live);
    expect(callInFlightView(live, activeCall)).toBe(live);
  });

  it("falls back to the server's call in flight with no text (it began before this tab listened, or runs elsewhere)", () => {
    const { role, trial, step, startedAt } = activeCall;
    expect(callInFlightView(null, activeCall)).toEqual({ role, trial, step, startedAt, text: "", ended: false, joinedLate: false });
    expect(callInFlightView(null, null)).toBeNull();
  });
});

describe("parseLiveCallMessage", () => {
  it("parses the three kinds with the domain schema", () => {
    const actor = call("reflector", 1, null);
    expect(parseLiveCallMessage(JSON.stringify(actor.start()))).toEqual(actor.start());
    expect(parseLiveCallMessage(JSON.stringify(actor.delta("I should")))).toEqual(actor.delta("I should"));
    expect(parseLiveCallMessage(JSON.stringify(actor.end()))).toEqual(actor.end());
  });
  it("returns null for unknown kinds", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(parseLiveCallMessage(JSON.stringify({ ...call("actor", 1, 1).start(), kind: "call-progress" }))).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
