import type { EventData, RunEvent } from "@/lib/domain/events";

/**
 * The `memory-summary` events of a branch path (the
 * reflections merged into one by the Self-Reflection model with the run's
 * summariser template when they exceeded the token budget), oldest first,
 * for the memory panel's before/after view. Pure.
 */

/** One summary: the event's data with its id and seq. */
export type MemorySummaryView = EventData<"memory-summary"> & { eventId: string; seq: number };

/** Every memory summary in `events`, in log order. */
export function memorySummaries(events: readonly RunEvent[]): MemorySummaryView[] {
  const summaries: MemorySummaryView[] = [];
  for (const event of events) if (event.type === "memory-summary") summaries.push({ ...event.data, eventId: event.id, seq: event.seq });
  return summaries;
}

/** "5 reflections (412 tokens) → 1 summary (96 tokens), budget 300 tokens". */
export function memorySummaryLine(summary: Pick<MemorySummaryView, "before" | "after" | "beforeTokens" | "afterTokens" | "tokenBudget">): string {
  const before = `${summary.before.length} ${summary.before.length === 1 ? "reflection" : "reflections"} (${summary.beforeTokens} tokens)`;
  const after = `${summary.after.length} ${summary.after.length === 1 ? "summary" : "entries"} (${summary.afterTokens} tokens)`;
  return `${before} → ${after}, budget ${summary.tokenBudget} tokens`;
}
