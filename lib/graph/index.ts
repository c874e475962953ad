/**
 * Pure projection of a folded run into React Flow nodes and edges, laid out
 * as one column per trial (a chain per lane, in closed form: decision 0013),
 * and the collapsed view of long runs. No React here: components import these
 * and render them.
 */
export { createRunGraphDeriver, deriveRunGraph, HANDLES, laneNodeId, laneSegments, liveCallNodeId, type LaneSegment, type RunGraphDeriver } from "./derive-run-graph";
export {
  createLayoutCache,
  LANE_GAP,
  LANE_PADDING,
  layoutLane,
  layoutRunGraph,
  NODE_HEIGHTS,
  nodeHeight,
  NODE_WIDTH,
  topologyKey,
  type LayoutLane,
  type LayoutResult,
} from "./layout";
export {
  collapsedTrials,
  COLLAPSE_POLICY,
  createCollapsedViewDeriver,
  defaultCollapsedTrials,
  pinnedTrials,
  summarizeTrials,
  trialGroupNodeId,
  TRIAL_GROUP_HEIGHT,
  type CollapsedViewDeriver,
  type CollapseInput,
  type CollapsePolicy,
} from "./collapse";
export {
  CODE_NODE_HEIGHTS,
  CODE_PREVIEW_LINES,
  codeRunOf,
  codeTrialSummary,
  codeTrialView,
  commentMarker,
  failureLine,
  falsePositiveCause,
  falsePositiveExplanation,
  lastInternalRun,
  passedVacuously,
  type CodeRun,
} from "./code-views";
export { assertExample, codeNextAction, programExample, type CodeNextAction } from "./steering";
export {
  branchLabel,
  branchTree,
  forkEndsExplanation,
  forkPointsByEventId,
  reflectionAt,
  type BranchTreeRow,
  type TreeBranch,
  type ForkPoint,
} from "./branches";
export {
  carriesLastAttempt,
  locateMemoryInPrompt,
  memoryExpectation,
  missingMemory,
  promptText,
  type MemoryExpectation,
  type MemoryInPrompt,
  type MemoryMatch,
  type MissingMemory,
  type PromptSegment,
} from "./prompt-memory";
export type * from "./types";
export {
  COLLAPSE_CHARS,
  formatBytes,
  isLongText,
  nodeText,
  placeholderText,
  segmentText,
  textPreview,
  withPlaceholders,
  type TextSegment,
} from "./text-preview";
