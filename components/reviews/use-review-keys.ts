"use client";

import { useEffect, useRef } from "react";
import { isTypingTarget } from "@/components/replay";

/** What the review keys do (shown by `?` on the queue page and in docs/review-queues.md). */
export const REVIEW_KEYS: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: "1 … n", does: "choose the rubric's label n and save the review (with the tags, comment and correction typed), then go to the next item (a verdict item stays, showing the judge's verdict: → moves on)" },
  { keys: "→  or  j", does: "next item" },
  { keys: "←  or  k", does: "previous item" },
  { keys: "t", does: "type tags (comma-separated)" },
  { keys: "c", does: "type a comment" },
  { keys: "e", does: "write a corrected reflection" },
  { keys: "Esc", does: "leave a text field (the keys work again)" },
  { keys: "?", does: "show or hide these keys" },
];

/** What a key press asks of the review page. */
export type ReviewKeyAction = { kind: "label"; index: number } | { kind: "move"; direction: 1 | -1 } | { kind: "focus"; field: "tags" | "comment" | "correction" } | { kind: "help" };

/** Maps a key press to a {@link ReviewKeyAction} (null: not a review key). `labels` is how many labels the rubric has. Pure, for tests and the hook. */
export function reviewKeyAction(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey">, labels: number): ReviewKeyAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key;
  if (/^[1-9]$/u.test(key)) {
    const index = Number(key) - 1;
    return index < labels ? { kind: "label", index } : null;
  }
  if (key === "ArrowRight" || key === "j") return { kind: "move", direction: 1 };
  if (key === "ArrowLeft" || key === "k") return { kind: "move", direction: -1 };
  if (key === "t") return { kind: "focus", field: "tags" };
  if (key === "c") return { kind: "focus", field: "comment" };
  if (key === "e") return { kind: "focus", field: "correction" };
  if (key === "?") return { kind: "help" };
  return null;
}

/**
 * The review keys on the window while `enabled`: keys typed into fields are the field's, except
 * Esc, which leaves the field so the keys work again.
 */
export function useReviewKeys(enabled: boolean, labels: number, onAction: (action: ReviewKeyAction) => void): void {
  const latest = useRef(onAction);
  useEffect(() => {
    latest.current = onAction;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (isTypingTarget(event.target)) {
        if (event.key === "Escape" && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      const action = reviewKeyAction(event, labels);
      if (!action) return;
      event.preventDefault();
      latest.current(action);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [enabled, labels]);
}
