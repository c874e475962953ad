import type { RunStatus } from "./status";

/**
 * What the run page says about a branch it shows: the branch's own status (lib/domain/status.ts)
 * or, while a replay cursor stands behind the end of the log, `replaying` — a state of its own,
 * never the status of the log's prefix. A finished or imported run seen at a cursor is not
 * "running": its log simply goes on past what is shown (decision 0043, class-defects).
 *
 * The header's pill, the trial chips, the branch switcher, the Branches strip and the banners all
 * read this one derivation; the controls (Pause, Resume…) keep the branch's real status.
 */
export type ShownStatus = RunStatus | "replaying";

/**
 * Where the replay cursor stands, counted in ReAct steps — the stops of the replay bar's step
 * keys (`]` / `[`, lib/graph/replay-cursor.ts `replayStops(…, "step")`): the run's start, each
 * trial's start, each thought → action → observation, each evaluation and reflection, the end.
 * A teacher reads "step 5 of 14" as moves of the replay, not as event numbers.
 */
export interface ReplayStep {
  /** Steps shown, 0…`of` (0 = nothing shown yet). */
  step: number;
  /** Steps in the whole log (grows while a live run goes on). */
  of: number;
}

/**
 * The one derivation of {@link ShownStatus}: `replaying` while `replay` is set (the cursor is behind
 * the log's end), else the branch's status (`null` while unknown).
 */
export function shownStatus(status: RunStatus | null, replay: ReplayStep | null): ShownStatus | null {
  return replay !== null ? "replaying" : status;
}

/** "replaying (step 5 of 14)" — the words every label uses for the replay state. */
export function replayingLabel(replay: ReplayStep): string {
  return `replaying (step ${replay.step} of ${replay.of})`;
}

/** A branch as the page lists it (switcher, Branches strip): its summary with the status shown and, while replaying, the cursor's step. */
export interface ShownBranchFacts {
  status: ShownStatus;
  outcome: "success" | "failure" | "cancelled" | null;
  /** Set when `status` is `replaying`. */
  replay?: ReplayStep | null;
}

/**
 * A branch's status in words for the switcher and the Branches strip: `ended · success`,
 * `replaying (step 5 of 14)`, or the status itself (`running`, `paused`…).
 */
export function branchStatusText(branch: ShownBranchFacts): string {
  if (branch.status === "replaying") return branch.replay ? replayingLabel(branch.replay) : "replaying";
  if (branch.status === "ended" && branch.outcome) return `ended · ${branch.outcome}`;
  return branch.status;
}
