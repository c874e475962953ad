"use client";

import { useEffect } from "react";
import type { RunEvent } from "@/lib/domain/events";
import { moveCursor, type ReplayUnit } from "@/lib/graph/replay-cursor";
import { useRunUiStore } from "@/lib/store";

/**
 * The replay keys (no clash with the graph's Enter / Space / Escape, the resizer's
 * ← / → or the lesson's PageUp / PageDown / ← / →):
 * `.` / `,` one event, `]` / `[` one ReAct step, `}` / `{` or Shift+→ / Shift+← one trial,
 * `p` play / pause, `Home` the start, `End` live (the whole log).
 */
export const REPLAY_KEYS: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: ", .", does: "one event back / forward" },
  { keys: "[ ]", does: "one step back / forward" },
  { keys: "{ }  or  Shift+← Shift+→", does: "one trial back / forward" },
  { keys: "p", does: "play / pause" },
  { keys: "Home End", does: "the run's start / live" },
];

/** True when a key press belongs to a text field, an editor or a select, not to the page. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  return target.closest(".monaco-editor, [role='textbox'], [role='dialog']") !== null;
}

/** What a key press asks of the replay: a move by one unit, play / pause, or a jump to either end. */
export type ReplayKeyAction = { kind: "move"; unit: ReplayUnit; direction: 1 | -1 } | { kind: "toggle-play" } | { kind: "start" } | { kind: "live" };

/** Maps a key press to a {@link ReplayKeyAction} (null: not a replay key). Pure, for tests and the hook. */
export function replayKeyAction(event: Pick<KeyboardEvent, "key" | "shiftKey" | "ctrlKey" | "metaKey" | "altKey">): ReplayKeyAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case ".":
      return { kind: "move", unit: "event", direction: 1 };
    case ",":
      return { kind: "move", unit: "event", direction: -1 };
    case "]":
      return { kind: "move", unit: "step", direction: 1 };
    case "[":
      return { kind: "move", unit: "step", direction: -1 };
    case "}":
      return { kind: "move", unit: "trial", direction: 1 };
    case "{":
      return { kind: "move", unit: "trial", direction: -1 };
    case "ArrowRight":
      return event.shiftKey ? { kind: "move", unit: "trial", direction: 1 } : null;
    case "ArrowLeft":
      return event.shiftKey ? { kind: "move", unit: "trial", direction: -1 } : null;
    case "p":
    case "P":
      return { kind: "toggle-play" };
    case "Home":
      return { kind: "start" };
    case "End":
      return { kind: "live" };
    default:
      return null;
  }
}

/** Listens for the replay keys on the window while the workspace is open. */
export function useReplayKeys(events: readonly RunEvent[]): void {
  const cursor = useRunUiStore((store) => store.cursor);
  const playing = useRunUiStore((store) => store.playing);
  const setCursor = useRunUiStore((store) => store.setCursor);
  const setPlaying = useRunUiStore((store) => store.setPlaying);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target) || events.length === 0) return;
      const action = replayKeyAction(event);
      if (!action) return;
      event.preventDefault();
      if (action.kind === "move") {
        setPlaying(false);
        setCursor(moveCursor(events, cursor, action.unit, action.direction));
      } else if (action.kind === "toggle-play") {
        if (!playing && (cursor === null || cursor >= events.length)) setCursor(0);
        setPlaying(!playing);
      } else if (action.kind === "start") {
        setPlaying(false);
        setCursor(0);
      } else {
        setCursor(null);
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [events, cursor, playing, setCursor, setPlaying]);
}
