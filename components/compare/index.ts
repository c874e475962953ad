/** The compare view: runs side by side with aligned trial lanes, the first divergence, trial and memory diffs. */
export { CompareView } from "./compare-view";
export { RunHistory } from "./run-history";
export { TrialLanes, type LaneRun } from "./trial-lanes";
export { WordDiff, WordDiffKey } from "./word-diff";
