import type { BranchSummary, RunStatus } from "@/lib/domain/api";
import type { RunEvent } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import { forkPointsByEventId, type ForkPoint } from "@/lib/graph";
import { shownStatus, type ReplayStep, type ShownStatus } from "@/lib/domain/shown-status";

/**
 * What the page says about the branch shown while a replay cursor is set (a lesson, the replay bar):
 * `replaying (step k of n)` (lib/domain/shown-status.ts), and the trials, outcome and calls **at the
 * cursor** — the fold of the log's prefix — never the server's final summary, so a lesson asking
 * "in which trial will it first succeed?" does not answer itself (decision 0021). Pure: no React, no store.
 */

/**
 * The status the header, trial chips and banners show: the server's (or the stream's) live status,
 * or `replaying` while `replay` is set (the cursor is behind the log's end; see {@link shownStatus}).
 */
export function displayedStatus(liveStatus: RunStatus | null, replay: ReplayStep | null): ShownStatus | null {
  return shownStatus(liveStatus, replay);
}

/** A branch summary as the page lists it: the status shown (maybe `replaying`) and the cursor's step while replaying. */
export type ShownBranchSummary = Omit<BranchSummary, "status"> & { status: ShownStatus; replay: ReplayStep | null };

/**
 * The branch summaries the Branches strip and switcher show. Live, the branch on screen takes its
 * stream's status and the log's outcome over the polled summary; while `replay` is set, it says
 * `replaying (step k of n)` with the prefix's outcome (none before the run's end), trial count and
 * model calls instead. Other branches keep their polled summary.
 */
export function branchSummariesAtCursor(
  summaries: readonly BranchSummary[],
  currentBranchId: string | null,
  state: RunState,
  liveStatus: RunStatus | null,
  replay: ReplayStep | null,
): ShownBranchSummary[] {
  return summaries.map((summary) => {
    if (summary.id !== currentBranchId) return { ...summary, replay: null };
    if (replay !== null) {
      return {
        ...summary,
        status: "replaying",
        replay,
        outcome: state.outcome,
        trials: state.trials.length,
        // A fork's summary counts only its own calls; its folded prefix also holds the shared part, so only the root's are replaced.
        ...(summary.parentBranchId === null ? { liveCalls: state.totals.liveCalls, cachedCalls: state.totals.cachedCalls } : {}),
      };
    }
    return liveStatus ? { ...summary, status: liveStatus, outcome: state.outcome ?? summary.outcome, replay: null } : { ...summary, replay: null };
  });
}

/**
 * Where each node on screen at the cursor can be forked from: the checkpoint the engine wrote right
 * after it, looked up in the **whole** log (`events`), for the nodes of the shown prefix (the first
 * `shown` events). At a cursor just after an evaluation, its checkpoint lies past the cursor but is
 * in the log: "Fork here" forks from it rather than saying "not in the log yet". Live (`shown` =
 * the log's length), the same as `forkPointsByEventId(events)`.
 */
export function forkPointsAtCursor(events: readonly RunEvent[], shown: number): Map<string, ForkPoint> {
  const points = forkPointsByEventId(events);
  if (shown >= events.length) return points;
  const onScreen = new Set<string>(events.slice(0, shown).map((event) => event.id));
  return new Map([...points].filter(([eventId]) => onScreen.has(eventId)));
}
