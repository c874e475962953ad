import type { ChangeAuthor, ChangeView } from "@/lib/domain/change-authors";
import type { EventType } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/run-state";

/**
 * The view model of who changed a run (lib/domain/change-authors.ts): short lines for the inspector
 * and the memory panel. Times are shown as UTC `HH:MM`, with the date when it is not the day of `now`.
 */

const WHAT: Partial<Record<EventType, string>> = {
  "reflection-edit": "edited the reflection",
  "memory-edit": "edited the memory",
  "prompt-edit": "edited a prompt",
  "settings-edit": "changed the settings",
  "action-edit": "wrote the next action",
  "budget-edit": "changed the budget",
  "branch-start": "forked this branch",
  "pause-request": "asked to pause",
  "cancel-request": "asked to cancel",
};

/** `14:02` (UTC) when `at` is on the day of `now`, else `2026-12-04 14:02`. */
export function changeTime(at: string, now: Date = new Date()): string {
  const day = at.slice(0, 10);
  const time = at.slice(11, 16);
  return day === now.toISOString().slice(0, 10) ? time : `${day} ${time}`;
}

/** `edited by alice · 14:02`, or null when no author is known (nothing is shown then). */
export function editedByLine(author: ChangeAuthor | undefined, now?: Date, verb = "edited"): string | null {
  return author ? `${verb} by ${author.name} · ${changeTime(author.at, now)}` : null;
}

/** `bob forked this branch · 14:02`. */
export function changeLine(change: ChangeView, now?: Date): string {
  return `${change.name} ${WHAT[change.type] ?? change.type} · ${changeTime(change.at, now)}`;
}

/**
 * The attributed changes made while trial `trial` was the latest one started (those before trial 1
 * count with trial 1), oldest first: what a person changed after that trial began.
 */
export function changesOfTrial(state: RunState, trial: number): ChangeView[] {
  return (state.changes ?? []).filter((change) => change.trialsStarted === trial || (trial === 1 && change.trialsStarted === 0));
}
