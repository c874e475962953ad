"use client";

import { useEffect, useRef } from "react";
import { isTypingTarget } from "@/components/replay";

/** What the teacher console's keys do (shown on the console and in docs/guides/teaching.md). */
export const CLASS_KEYS: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: "PageDown  →  ↓", does: "next step" },
  { keys: "PageUp  ←  ↑", does: "previous step" },
  { keys: "r", does: "reveal the answers of the current prediction" },
];

/** The handlers the console's keys call. */
export interface ClassKeyHandlers {
  next: () => void;
  previous: () => void;
  reveal: () => void;
}

/**
 * The teacher console's keys on the window (what presentation clickers send): PageDown / → / ↓
 * next step, PageUp / ← / ↑ previous, `r` reveal. Keys typed into fields, and keys with Ctrl,
 * Meta or Alt, are left alone. `enabled` false: no key acts (a class that ended).
 */
export function useClassKeys(enabled: boolean, handlers: ClassKeyHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      const on = latest.current;
      const act = (run: () => void) => {
        event.preventDefault();
        run();
      };
      if (event.key === "PageDown" || event.key === "ArrowRight" || event.key === "ArrowDown") act(on.next);
      else if (event.key === "PageUp" || event.key === "ArrowLeft" || event.key === "ArrowUp") act(on.previous);
      else if (event.key === "r" || event.key === "R") act(on.reveal);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [enabled]);
}
