"use client";

import { useEffect, useRef } from "react";
import { isTypingTarget } from "@/components/replay";

/** What the lesson's keys do (shown in the narration panel and docs/guides/teaching.md). */
export const LESSON_KEYS: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: "PageDown  →", does: "next step (on an open question: skip it and reveal the answer)" },
  { keys: "PageUp  ←", does: "previous step" },
  { keys: "1, 2, 3 …", does: "answer a prediction (the choice's number, 1–9)" },
  { keys: "s", does: "skip a prediction (reveals the answer)" },
  { keys: "Esc", does: "leave the lesson: explore freely at the same moment" },
  { keys: "l", does: "back to the lesson (in presenter mode again if it was on)" },
];

/** The handlers the lesson's keys call. */
export interface LessonKeyHandlers {
  next: () => void;
  previous: () => void;
  answer: (index: number) => void;
  skip: () => void;
  leave: () => void;
  back: () => void;
}

/**
 * The lesson's keys on the window: PageDown / PageUp (what presentation clickers send) and
 * → / ← step the lesson, digits answer, `s` skips, Esc leaves, `l` comes back. While
 * `exploring`, only `l` acts. Shift+arrows are left to the replay (one trial); keys typed
 * into fields, editors, dialogs or the panel resizer are ignored.
 */
export function useLessonKeys(exploring: boolean, handlers: LessonKeyHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      if (event.target instanceof HTMLElement && event.target.closest("[role='separator']")) return;
      const act = (run: () => void) => {
        event.preventDefault();
        run();
      };
      const on = latest.current;
      if (exploring) {
        if (event.key === "l" || event.key === "L") act(on.back);
        return;
      }
      if (event.shiftKey && (event.key === "ArrowRight" || event.key === "ArrowLeft")) return;
      if (event.key === "PageDown" || event.key === "ArrowRight") act(on.next);
      else if (event.key === "PageUp" || event.key === "ArrowLeft") act(on.previous);
      else if (event.key === "Escape") act(on.leave);
      else if (event.key === "s" || event.key === "S") act(on.skip);
      else if (/^[1-9]$/.test(event.key)) act(() => on.answer(Number(event.key) - 1));
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [exploring]);
}
