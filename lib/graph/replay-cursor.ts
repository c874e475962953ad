import type { RunEvent } from "@/lib/domain/events";
import type { ReplayStep } from "@/lib/domain/shown-status";

/**
 * Replay of a recorded branch at class speed (docs/decisions/0021).
 *
 * A **cursor** is a number of events: the views show the projection of the log's
 * prefix `events.slice(0, cursor)` — the same fold and graph derivation the live
 * run had after that many events (decision 0001: every view is a projection of the
 * log), so replay equals the live run at every position. `null` means "live": the
 * whole log as it grows. Pure: no React, no store.
 */

/** How far one key press moves the cursor: one event, one ReAct step, one trial. */
export type ReplayUnit = "event" | "step" | "trial";

/** The events after which a ReAct "step" of the replay stops: each visible unit of a trial. */
const STEP_STOP_TYPES: ReadonlySet<RunEvent["type"]> = new Set<RunEvent["type"]>([
  "run-start",
  "trial-start",
  "step-observation",
  "evaluation-end",
  "reflection-end",
  "run-end",
  "run-error",
]);

/** The cursor as a whole number in `[0, events.length]` (`null` = the whole log). */
export function clampCursor(cursor: number | null, total: number): number {
  if (cursor === null || !Number.isFinite(cursor)) return total;
  return Math.min(total, Math.max(0, Math.floor(cursor)));
}

/** The prefix of the log the views show at `cursor` (the same array when the cursor is live or at the end). */
export function replayPrefix<E>(events: readonly E[], cursor: number | null): readonly E[] {
  const at = clampCursor(cursor, events.length);
  return at === events.length ? events : events.slice(0, at);
}

/**
 * The cursor positions one unit lands on, ascending, always including 0 and the end:
 * - `event`: every position `0…n`;
 * - `step`: just after the run's start, each trial's start, each observation (the end of a
 *   thought → action → observation step), each evaluation and reflection, and the run's end;
 * - `trial`: just before each trial's start (the previous trial, its evaluation and its
 *   reflection all shown) and the end.
 */
export function replayStops(events: readonly Pick<RunEvent, "type">[], unit: ReplayUnit): number[] {
  const n = events.length;
  if (unit === "event") return Array.from({ length: n + 1 }, (_, index) => index);
  const stops = new Set<number>([0, n]);
  events.forEach((event, index) => {
    if (unit === "step" && STEP_STOP_TYPES.has(event.type)) stops.add(index + 1);
    if (unit === "trial" && event.type === "trial-start") stops.add(index);
  });
  return [...stops].sort((a, b) => a - b);
}

/**
 * The cursor one `unit` forwards (`direction` 1) or backwards (-1) from `cursor`
 * (`null` = the end). Stays put at either end. Returns a number; the caller maps
 * "the end of a finished log" back to live if it wants to.
 */
export function moveCursor(events: readonly Pick<RunEvent, "type">[], cursor: number | null, unit: ReplayUnit, direction: 1 | -1): number {
  const at = clampCursor(cursor, events.length);
  const stops = replayStops(events, unit);
  if (direction === 1) return stops.find((stop) => stop > at) ?? events.length;
  let previous = 0;
  for (const stop of stops) if (stop < at) previous = stop;
  return previous;
}

/** Where the cursor is, in the field's terms: "trial 2 · step 3 · event 41/87". */
export interface CursorPosition {
  /** Events shown (the cursor), 0…total. */
  event: number;
  total: number;
  /** The trial of the newest shown event that belongs to one (null before trial 1 starts). */
  trial: number | null;
  /** The ReAct step of the newest shown step event in that trial (null before its first step). */
  step: number | null;
  /** True when every event of the log is shown. */
  atEnd: boolean;
}

function trialOf(event: RunEvent): number | null {
  const data: unknown = event.data;
  if (typeof data === "object" && data !== null && "trial" in data && typeof data.trial === "number") return data.trial;
  return null;
}

function stepOf(event: RunEvent): number | null {
  const data: unknown = event.data;
  if (typeof data === "object" && data !== null && "step" in data && typeof data.step === "number") return data.step;
  return null;
}

/** The trial and step the cursor stands in (see {@link CursorPosition}). */
export function cursorPosition(events: readonly RunEvent[], cursor: number | null): CursorPosition {
  const at = clampCursor(cursor, events.length);
  let trial: number | null = null;
  let step: number | null = null;
  for (const event of events.slice(0, at)) {
    if (event.type === "trial-start") {
      trial = event.data.trial;
      step = null;
      continue;
    }
    const eventTrial = trialOf(event);
    if (eventTrial !== null && eventTrial !== trial) {
      trial = eventTrial;
      step = null;
    }
    const eventStep = event.type.startsWith("step-") ? stepOf(event) : null;
    if (eventStep !== null) step = eventStep;
  }
  return { event: at, total: events.length, trial, step, atEnd: at === events.length };
}

/** {@link cursorPosition} in words: `trial 2 · step 3 · event 41/87` (parts left out while unknown). */
export function describeCursor(position: CursorPosition): string {
  const parts: string[] = [];
  if (position.trial !== null) parts.push(`trial ${position.trial}`);
  if (position.step !== null) parts.push(`step ${position.step}`);
  parts.push(`event ${position.event}/${position.total}`);
  return parts.join(" · ");
}

/**
 * The cursor in ReAct steps (lib/domain/shown-status.ts {@link ReplayStep}): `of` = the step stops
 * of the whole log (see {@link replayStops}, position 0 not counted), `step` = those at or before
 * the cursor. Null when the cursor shows the whole log (live: nothing is being replayed).
 */
export function replayStep(events: readonly Pick<RunEvent, "type">[], cursor: number | null): ReplayStep | null {
  const at = clampCursor(cursor, events.length);
  if (at === events.length) return null;
  const stops = replayStops(events, "step").filter((stop) => stop > 0);
  return { step: stops.filter((stop) => stop <= at).length, of: stops.length };
}
