import type { BranchSummary, RunStatus } from "@/lib/domain/api";
import type { RunState } from "@/lib/domain/fold-run";

/**
 * What the page says about the branch shown while a replay cursor is set (a lesson, the replay bar):
 * the state **at the cursor** — the fold of the log's prefix — never the server's final summary, so
 * a lesson asking "in which trial will it first succeed?" does not answer itself (decision 0021).
 * Pure: no React, no store.
 */

/**
 * The status the header, trial chips and banners show: the server's (or the stream's) live status,
 * or — while `replaying` (the cursor is behind the log's end) — the status of the folded prefix.
 */
export function displayedStatus(liveStatus: RunStatus | null, state: RunState, replaying: boolean): RunStatus | null {
  if (!replaying) return liveStatus;
  return state.status;
}

/**
 * The branch summaries the Branches strip and switcher show. Live, the branch on screen takes its
 * stream's status and the log's outcome over the polled summary; while `replaying`, it shows the
 * prefix's status, outcome (none before the run's end), trial count and model calls instead.
 */
export function branchSummariesAtCursor(
  summaries: readonly BranchSummary[],
  currentBranchId: string | null,
  state: RunState,
  liveStatus: RunStatus | null,
  replaying: boolean,
): BranchSummary[] {
  return summaries.map((summary) => {
    if (summary.id !== currentBranchId) return summary;
    if (replaying) {
      return {
        ...summary,
        status: state.status,
        outcome: state.outcome,
        trials: state.trials.length,
        // A fork's summary counts only its own calls; its folded prefix also holds the shared part, so only the root's are replaced.
        ...(summary.parentBranchId === null ? { liveCalls: state.totals.liveCalls, cachedCalls: state.totals.cachedCalls } : {}),
      };
    }
    return liveStatus ? { ...summary, status: liveStatus, outcome: state.outcome ?? summary.outcome } : summary;
  });
}
