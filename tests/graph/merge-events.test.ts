import { describe, expect, it } from "vitest";
import { mergeEvents, type RunEventsCache } from "@/lib/query/merge-events";
import { twoTrialReflexionRun } from "./fixtures";

describe("mergeEvents (the SSE → query cache step of useRunEvents)", () => {
  const { log } = twoTrialReflexionRun();
  const all = log.events;
  const start: RunEventsCache = { events: all.slice(0, 5), status: "running", activeCall: null, lastSeq: 5, statusSeq: 5 };

  it("appends the next events in order", () => {
    const merged = mergeEvents(start, all.slice(5, 8));
    expect(merged.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(merged.lastSeq).toBe(8);
    expect(merged.events[0]).toBe(start.events[0]);
  });

  it("drops duplicates by seq and restores order after a reconnect replays events", () => {
    const replayed = [all[4], all[6], all[5], all[3]].filter((event) => event !== undefined);
    const merged = mergeEvents(start, replayed);
    expect(merged.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(merged.lastSeq).toBe(7);
  });

  it("returns the same object when nothing changed", () => {
    expect(mergeEvents(start, all.slice(0, 3))).toBe(start);
    expect(mergeEvents(start, [], { status: "running", seq: 5, source: "stream" })).toBe(start);
    expect(mergeEvents(start, [], { status: "running", seq: 5, activeCall: null, source: "page" })).toBe(start);
  });

  it("updates the status alone", () => {
    const merged = mergeEvents(start, [], { status: "pausing", seq: 5, source: "stream" });
    expect(merged.status).toBe("pausing");
    expect(merged.events).toBe(start.events);
  });
});
