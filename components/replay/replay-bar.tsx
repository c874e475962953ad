"use client";

import { useEffect, useMemo } from "react";
import type { RunEvent } from "@/lib/domain/events";
import { clampCursor, cursorPosition, describeCursor, moveCursor, type ReplayUnit } from "@/lib/graph/replay-cursor";
import { useRunUiStore } from "@/lib/store";
import { cn } from "@/lib/utils/cn";
import { REPLAY_KEYS, useReplayKeys } from "./use-replay-keys";

/** The class pace at 1×: one event every 600 ms (a 5-trial QA run of ~90 events plays in about a minute). */
export const REPLAY_PACE_MS = 600;

/** The speeds offered, as multiples of {@link REPLAY_PACE_MS}. */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4] as const;

const buttonClass =
  "inline-flex h-7 min-w-7 items-center justify-center rounded border border-slate-300 bg-white px-1.5 text-xs font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-400";

/** Advances the cursor one event per `REPLAY_PACE_MS / speed` while `playing`; stops at the end of the log. */
function usePlayback(total: number): void {
  const cursor = useRunUiStore((store) => store.cursor);
  const playing = useRunUiStore((store) => store.playing);
  const speed = useRunUiStore((store) => store.speed);
  const setCursor = useRunUiStore((store) => store.setCursor);
  const setPlaying = useRunUiStore((store) => store.setPlaying);
  useEffect(() => {
    if (!playing) return;
    const at = clampCursor(cursor, total);
    if (at >= total) {
      setPlaying(false);
      return;
    }
    const timer = window.setTimeout(() => setCursor(at + 1), REPLAY_PACE_MS / speed);
    return () => window.clearTimeout(timer);
  }, [playing, cursor, speed, total, setCursor, setPlaying]);
}

/**
 * Replay at class speed: play / pause, speed 0.5×–4× of one
 * event per 600 ms, step by event / ReAct step / trial (buttons and the keys of
 * {@link REPLAY_KEYS}), back to live; shows "trial 2 · step 3 · event 41/87".
 * The workspace derives the graph, memory panel and inspector from the prefix of
 * the log at the store's cursor. `compact` hides the buttons (presenter mode);
 * the keys keep working.
 */
export function ReplayBar({ events, compact = false }: { events: readonly RunEvent[]; compact?: boolean }) {
  const cursor = useRunUiStore((store) => store.cursor);
  const playing = useRunUiStore((store) => store.playing);
  const speed = useRunUiStore((store) => store.speed);
  const setCursor = useRunUiStore((store) => store.setCursor);
  const setPlaying = useRunUiStore((store) => store.setPlaying);
  const setSpeed = useRunUiStore((store) => store.setSpeed);
  useReplayKeys(events);
  usePlayback(events.length);
  const position = useMemo(() => cursorPosition(events, cursor), [events, cursor]);
  const label = describeCursor(position);
  const live = cursor === null;
  if (events.length === 0) return null;

  const move = (unit: ReplayUnit, direction: 1 | -1) => {
    setPlaying(false);
    setCursor(moveCursor(events, cursor, unit, direction));
  };
  const togglePlay = () => {
    if (!playing && position.atEnd) setCursor(0);
    setPlaying(!playing);
  };

  return (
    <div
      role="toolbar"
      aria-label="Replay"
      data-testid="replay-bar"
      data-cursor={position.event}
      data-total={position.total}
      data-live={live || undefined}
      className={cn("flex flex-none flex-wrap items-center gap-1 border-b border-slate-200 bg-slate-50 px-4 py-1 text-xs text-slate-700", compact && "py-0.5")}
    >
      {compact ? null : (
        <>
          <span className="mr-1 font-semibold uppercase tracking-wide text-slate-500">Replay</span>
          <button type="button" className={buttonClass} onClick={() => move("trial", -1)} disabled={position.event === 0} aria-label="One trial back" title="One trial back ({ or Shift+←)">
            |◀◀
          </button>
          <button type="button" className={buttonClass} onClick={() => move("step", -1)} disabled={position.event === 0} aria-label="One step back" title="One step back ([)">
            ◀◀
          </button>
          <button type="button" className={buttonClass} onClick={() => move("event", -1)} disabled={position.event === 0} aria-label="One event back" title="One event back (,)">
            ◀
          </button>
          <button type="button" className={cn(buttonClass, "min-w-14")} onClick={togglePlay} aria-pressed={playing} data-testid="replay-play" title="Play / pause (p)">
            {playing ? "Pause" : "Play"}
          </button>
          <button type="button" className={buttonClass} onClick={() => move("event", 1)} disabled={position.atEnd} aria-label="One event forward" title="One event forward (.)">
            ▶
          </button>
          <button type="button" className={buttonClass} onClick={() => move("step", 1)} disabled={position.atEnd} aria-label="One step forward" title="One step forward (])">
            ▶▶
          </button>
          <button type="button" className={buttonClass} onClick={() => move("trial", 1)} disabled={position.atEnd} aria-label="One trial forward" title="One trial forward (} or Shift+→)">
            ▶▶|
          </button>
          <label className="ml-2 flex items-center gap-1">
            <span>Speed</span>
            <select
              value={speed}
              onChange={(event) => setSpeed(Number(event.target.value))}
              data-testid="replay-speed"
              className="h-7 rounded border border-slate-300 bg-white px-1 text-xs"
              title={`1× = one event every ${REPLAY_PACE_MS} ms`}
            >
              {REPLAY_SPEEDS.map((value) => (
                <option key={value} value={value}>
                  {value}×
                </option>
              ))}
            </select>
          </label>
          <button type="button" className={cn(buttonClass, "ml-1", live && "border-emerald-400 text-emerald-800")} onClick={() => setCursor(null)} disabled={live} data-testid="replay-live" title="Show the whole log, following the run (End)">
            {live ? "Live" : "Back to live"}
          </button>
        </>
      )}
      <span className="ml-auto font-mono tabular-nums" data-testid="replay-position" aria-live="polite">
        {live ? `live · ${label}` : label}
      </span>
      {compact ? null : (
        <details className="relative">
          <summary className="cursor-pointer list-none rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-100" title="Replay keys">
            Keys
          </summary>
          <dl className="absolute right-0 top-6 z-30 grid w-64 grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded border border-slate-200 bg-white p-2 shadow">
            {REPLAY_KEYS.map((entry) => (
              <div key={entry.keys} className="contents">
                <dt className="font-mono text-slate-900">{entry.keys}</dt>
                <dd>{entry.does}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </div>
  );
}
