"use client";

import { useCallback, useSyncExternalStore } from "react";
import { z } from "zod";

/**
 * The learner's predictions in a lesson, kept in this browser only (localStorage):
 * per step index, the choice made (or `skipped`) and whether it was right.
 */
export const lessonAnswersSchema = z.record(z.string(), z.object({ choice: z.string(), correct: z.boolean(), at: z.string() }));
export type LessonAnswers = z.infer<typeof lessonAnswersSchema>;

const EMPTY: LessonAnswers = {};
const storageKey = (lessonId: string) => `reflexion-playground.lesson-answers.${lessonId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; value: LessonAnswers }>();

function read(lessonId: string): LessonAnswers {
  if (typeof window === "undefined") return EMPTY;
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(storageKey(lessonId));
  } catch {
    return EMPTY;
  }
  const cached = cache.get(lessonId);
  if (cached && cached.raw === raw) return cached.value;
  let value: LessonAnswers = EMPTY;
  if (raw !== null) {
    try {
      const parsed = lessonAnswersSchema.safeParse(JSON.parse(raw));
      value = parsed.success ? parsed.data : EMPTY;
    } catch {
      value = EMPTY;
    }
  }
  cache.set(lessonId, { raw, value });
  return value;
}

function write(lessonId: string, answers: LessonAnswers): void {
  try {
    window.localStorage.setItem(storageKey(lessonId), JSON.stringify(answers));
  } catch {
    // Private mode or a full quota: the answer still shows in this tab, it is just not kept.
    cache.set(lessonId, { raw: null, value: answers });
  }
  for (const listener of listeners) listener();
}

/** Right / answered / skipped counts of a lesson's answers. */
export function scoreOf(answers: LessonAnswers): { right: number; answered: number; skipped: number } {
  const entries = Object.values(answers);
  const skipped = entries.filter((entry) => entry.choice === "skipped").length;
  return { right: entries.filter((entry) => entry.correct).length, answered: entries.length - skipped, skipped };
}

/** The lesson's recorded answers, a recorder and a reset (all tabs of the browser see the same storage). */
export function useLessonAnswers(lessonId: string): {
  answers: LessonAnswers;
  record: (stepIndex: number, choice: string, correct: boolean) => void;
  reset: () => void;
} {
  const subscribe = useCallback((listener: () => void) => {
    listeners.add(listener);
    window.addEventListener("storage", listener);
    return () => {
      listeners.delete(listener);
      window.removeEventListener("storage", listener);
    };
  }, []);
  const answers = useSyncExternalStore(
    subscribe,
    () => read(lessonId),
    () => EMPTY,
  );
  const record = useCallback(
    (stepIndex: number, choice: string, correct: boolean) => write(lessonId, { ...read(lessonId), [String(stepIndex)]: { choice, correct, at: new Date().toISOString() } }),
    [lessonId],
  );
  const reset = useCallback(() => write(lessonId, {}), [lessonId]);
  return { answers, record, reset };
}
