import type { RunEvent } from "@/lib/domain/events";

/**
 * Where the replay cursor goes while the learner writes their own reflection on `trial`:
 * just after that trial's evaluation, so the graph, memory panel and
 * inspector show the log before the model's reflection — the learner must not see the
 * answer beside the question. A cursor already at or before that point is kept (`current`,
 * `null` = live). Without the trial's evaluation in `events`, `current` is returned unchanged.
 * Pure.
 */
export function practiceCursor(events: readonly RunEvent[], trial: number, current: number | null): number | null {
  const evaluation = events.findIndex((event) => event.type === "evaluation-end" && event.data.trial === trial);
  if (evaluation < 0) return current;
  const hideAt = evaluation + 1;
  return current !== null && current <= hideAt ? current : hideAt;
}
