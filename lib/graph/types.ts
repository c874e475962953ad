// Over 400 lines: the one catalogue of the run graph's node and edge data shapes (every node kind the lanes draw), kept together so the derivation, the layout and the node components read one contract.
/**
 * View model of a run as a React Flow graph. Pure data: no React, no callbacks.
 * The shapes are structurally compatible with `@xyflow/react`'s `Node` and
 * `Edge`, so components can hand them to `<ReactFlow>` unchanged.
 */

/** Every node kind the run graph draws. `lane` is the non-interactive background of a trial. */
export type GraphNodeKind =
  | "lane"
  | "trial"
  | "thought"
  | "action"
  | "observation"
  | "evaluation"
  | "reflection"
  | "refinement"
  | "call-error"
  | "live-call";

/** Background rectangle behind one trial's column. */
export type LaneNodeData = {
  trial: number;
  outcome: "success" | "failure" | "halted" | null;
};

/** The header of a trial's lane: what the Actor started the trial with. */
export type TrialNodeData = {
  trial: number;
  eventId: string;
  /** Reflections placed in the Actor's context for this trial (after the window Ω). */
  memoryInContext: number;
  /** Of {@link memoryInContext}, how many are ExpeL insights carried in from other tasks (not reflections). */
  insightsInContext?: number;
  /** Reflections the window left out. */
  memoryEvicted: number;
  /** Steps started so far. */
  steps: number;
  outcome: "success" | "failure" | "halted" | null;
  /** The run was cancelled while this trial was under way (no outcome, and not in progress either). */
  cancelled?: boolean;
  endReason: string | null;
  /**
   * The trial's first Actor prompt lacks memory it should carry (see
   * lib/graph/prompt-memory.ts `missingMemory`); false before that call.
   */
  memoryMissing: boolean;
  /** Code runs only: both verdicts of the trial, for the lane header. */
  code?: CodeTrialView;
};

/** Where a model call's answer came from: `live` (a model was called), `cache` (replayed), null when no call (a person wrote it) or not in the log. */
export type CallSource = "live" | "cache" | null;

export type ThoughtNodeData = {
  trial: number;
  step: number;
  eventId: string;
  /** The Actor call that wrote it; null when a person wrote the step (an `action-edit`). */
  callId: string | null;
  callSource: CallSource;
  text: string;
  /** Characters of reasoning (`<think>…</think>`) taken out of the completion: shown in the inspector, never in later prompts; 0 when none. */
  reasoningChars: number;
  /** From a published log (an imported run): no model call was recorded, and no person wrote it. */
  recordedByAuthors: boolean;
};

export type ActionNodeData = {
  trial: number;
  step: number;
  eventId: string;
  /** The Actor call that wrote it; null when a person injected the action (an `action-edit`). */
  callId: string | null;
  callSource: CallSource;
  /** The action line as the model wrote it. */
  text: string;
  /** Parsed verb (`Search`, `Finish`, …); null when the line did not parse. */
  actionType: string | null;
  argument: string | null;
  /**
   * The parsed action in its family's own syntax (step-display.ts): `go to desk 1`,
   * `think: …` for household, `Search[Alan Turing]` for QA; absent when it did not parse.
   */
  display?: string;
  /** True when the action is the step's thought (household `think: …`, step-display.ts); absent otherwise. */
  thought?: true;
  /** Why the line is not a valid action; null when it parsed. */
  parseError: string | null;
  /** True when the action did not parse (the environment answers "Invalid Action"). */
  invalid: boolean;
  /** What the action reader dropped around the first well-formed action (trailing text, a second action, a made-up observation); null when nothing. */
  ignored: string | null;
  /** The completion was cut off by the token limit but still held this action. */
  truncated: boolean;
  /** From a published log (an imported run): no model call was recorded, and no person wrote it. */
  recordedByAuthors: boolean;
  /** Code runs only (`WriteTests` / `Implement`): the verb and the first lines of the code. */
  code?: CodeActionView;
};

export type ObservationNodeData = {
  trial: number;
  step: number;
  eventId: string;
  text: string;
  done: boolean;
  answer: string | null;
  /** Where the agent is after the step (household family), else null. */
  location: string | null;
  /** What the agent holds after the step (household family), else null. */
  inventory: string[] | null;
  /** 1 + how many steps in a row before this one had the same action and observation. */
  repeats: number;
  /** The action had no effect (`Nothing happens.` / `Invalid Action`). */
  noEffect: boolean;
  /** Code runs only: the tests kept (after `WriteTests`) or the internal tests' result (after `Implement`). */
  code?: CodeObservationView;
};

export type EvaluationNodeData = {
  trial: number;
  eventId: string;
  verdict: "pass" | "fail";
  score: number;
  feedback: string;
  evaluatorKind: string;
  /** The evaluator used the gold answer: an oracle signal, not self-evaluation. */
  oracle: boolean;
  /** Code runs only: the internal verdict beside the hidden tests' one, and the false-positive flag. */
  code?: CodeVerdictView;
  /** LLM-judge evaluations only (`open`): the weighted score against the threshold and a score per criterion (0–1). */
  judge?: JudgeVerdictView;
};

/** What the evaluation node shows of an LLM judge's verdict. */
export type JudgeVerdictView = {
  weightedScore: number;
  threshold: number;
  modelId: string;
  criteria: Array<{ id: string; weight: number; rawScore: number; score: number }>;
};

export type ReflectionNodeData = {
  trial: number;
  eventId: string;
  callId: string;
  callSource: CallSource;
  /** Current text (edits applied). */
  text: string;
  /** What the model wrote. */
  originalText: string;
  edited: boolean;
  /** `edited by alice · 14:02` when the last edit records who made it (lib/graph/change-authors.ts); absent otherwise. */
  editedBy?: string;
  /**
   * Whether the next trial's context contains this reflection:
   * null while the next trial has not started.
   */
  inNextContext: boolean | null;
  /** Why the reflection failed a check (even after one retry) before it entered memory; null when it passed. */
  warning: string | null;
};

/**
 * One Self-Refine round of a trial (lib/domain/self-refine.ts), between the trajectory and the
 * verdict: the model's feedback on its answer and the answer it rewrote from it.
 */
export type RefinementNodeData = {
  trial: number;
  round: number;
  /** The `refine-feedback` event's id. */
  eventId: string;
  feedback: string;
  /** The feedback said there is nothing left to fix (the stop phrase): the round wrote no answer. */
  stop: boolean;
  /** The refined answer; null when the feedback stopped the loop or the refinement has not landed yet. */
  answer: string | null;
  /** The feedback call's and the refine call's ids (the inspector shows their prompts); the latter null without an answer. */
  feedbackCallId: string;
  answerCallId: string | null;
  callSource: CallSource;
  /** Code runs: answers are programs, drawn in a monospace font. */
  monospace: boolean;
};

export type CallErrorNodeData = {
  trial: number;
  step: number | null;
  eventId: string;
  role: string;
  code: string;
  message: string;
};

/**
 * The model call in flight, as the graph is given it (lib/query's
 * `LiveCallText` has this shape): its role, place, start time and the text it
 * has streamed so far. Transient; not an event.
 */
export type LiveCallInput = {
  role: "actor" | "reflector";
  trial: number;
  /** The Actor step; null for a Self-Reflection call. */
  step: number | null;
  /** ISO-8601 time the call started. */
  startedAt: string;
  text: string;
  /** The call has returned; its events are on their way. */
  ended: boolean;
  /** The beginning of the text was streamed before this tab listened. */
  joinedLate: boolean;
};

/**
 * The node of the call in flight: the Actor step being generated, or the
 * reflection being written, with its text as it streams in. It stands where
 * the step's thought (or the reflection) will be and is replaced by it when
 * the call's events arrive.
 */
export type LiveCallNodeData = LiveCallInput & {
  /** Code runs: the text is code, shown in a monospace font. */
  monospace: boolean;
};

/** Language of a code task. */
export type CodeLanguage = "python" | "javascript" | "typescript";

/** Verdict of one test run (lib/domain/code-trial.ts `CodeTestStatus`). */
export type CodeTestStatusView = "pass" | "fail" | "error" | "timeout";

/**
 * Code runs: what an action node shows for `WriteTests` / `Implement`. Only
 * primitives and arrays of primitives, so unchanged nodes keep their identity.
 */
export type CodeActionView = {
  /** The recorded verb (`WriteTests` / `Implement`). */
  actionType: "WriteTests" | "Implement";
  /** The verb in words: `Write tests` / `Implement`. */
  verb: string;
  language: CodeLanguage;
  /** The first lines of the code (leading blank lines skipped), at most `CODE_PREVIEW_LINES`. */
  preview: string[];
  /** Lines of code in all (blank lines at the ends left out). */
  lines: number;
};

/** Code runs: what an observation node shows. */
export type CodeObservationView =
  | {
      kind: "tests-written";
      language: CodeLanguage;
      /** Internal tests kept for the rest of the run. */
      kept: number;
      /** Lines the model wrote: kept + dropped. */
      written: number;
      /** Why the first dropped line was dropped; null when none was. */
      firstDropReason: string | null;
    }
  | {
      kind: "internal-run";
      language: CodeLanguage;
      /** The internal tests' verdict (an empty suite passes). */
      verdict: "pass" | "fail";
      passed: number;
      total: number;
      /** Each internal test's status, in order. */
      statuses: CodeTestStatusView[];
      /** The first test that did not pass, as the feedback shows it (`<assert> # output: <value>`); null when all passed. */
      firstFailure: string | null;
    };

/** The hidden tests' result, in numbers (reporting only: the agent never sees it). */
export type HiddenVerdictView = { verdict: "pass" | "fail"; passed: number; total: number };

/** Code runs: the two verdicts of a trial side by side. */
export type CodeVerdictView = {
  /** The internal tests' verdict: the Evaluator's, which drives the loop. */
  internal: "pass" | "fail";
  /** Internal tests passed / run, from the trial's last `Implement`; null when not recorded. */
  internalPassed: number | null;
  internalTotal: number | null;
  /** The dataset's hidden tests; null when they were not run. */
  hidden: HiddenVerdictView | null;
  /** Internal tests passed, hidden tests failed: the loop stopped on a wrong program. */
  falsePositive: boolean;
  /** The internal verdict passed vacuously: the suite was empty (`evaluation-end.details.vacuous`; only in logs recorded before an empty suite was judged `fail`). */
  vacuous: boolean;
  /** No runnable internal test checked the implementation, so the internal verdict is `fail` (`evaluation-end.details.untested`). */
  untested: boolean;
};

/** Code runs: the trial's verdicts for its lane header (null fields until the trial is evaluated). */
export type CodeTrialView = {
  internal: "pass" | "fail" | null;
  hidden: HiddenVerdictView | null;
  falsePositive: boolean;
  /** The internal verdict passed vacuously (an empty suite; only in logs recorded before an empty suite was judged `fail`). */
  vacuous: boolean;
  /** No runnable internal test checked the trial's implementation (`evaluation-end.details.untested`). */
  untested: boolean;
};

/** Node data by kind. */
export interface GraphNodeDataMap {
  lane: LaneNodeData;
  trial: TrialNodeData;
  thought: ThoughtNodeData;
  action: ActionNodeData;
  observation: ObservationNodeData;
  evaluation: EvaluationNodeData;
  reflection: ReflectionNodeData;
  refinement: RefinementNodeData;
  "call-error": CallErrorNodeData;
  "live-call": LiveCallNodeData;
}

/** A positioned node of one kind. `width`/`height` are fixed per kind (see layout.ts). */
export type GraphNodeOf<K extends GraphNodeKind> = {
  id: string;
  type: K;
  position: { x: number; y: number };
  data: GraphNodeDataMap[K];
  width: number;
  height: number;
  draggable: false;
  selectable: false;
  connectable: false;
  /** Keyboard focus (Tab); lanes are decoration and are not focusable. */
  focusable: boolean;
  /** Accessible name of the node for screen readers. */
  ariaLabel: string;
  zIndex?: number;
};

/** Any run-graph node, discriminated on `type`. */
export type RunGraphNode = { [K in GraphNodeKind]: GraphNodeOf<K> }[GraphNodeKind];

/** `flow`: next node inside a trial. `memory`: a reflection carried into the next trial. */
export type GraphEdgeKind = "flow" | "memory";

export type RunGraphEdge = {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string;
  targetHandle?: string;
  label?: string;
  className?: string;
  data: {
    kind: GraphEdgeKind;
    /** memory edges only: false when the next trial's context does not contain the reflection. */
    inContext?: boolean;
  };
};

/** The whole graph. */
export interface RunGraph {
  nodes: RunGraphNode[];
  edges: RunGraphEdge[];
}

/**
 * A collapsed trial (DESIGN.md §5): one node standing for its whole lane, with
 * what a reader needs to decide whether to open it. Primitives only, so an
 * unchanged group keeps its identity. Not part of {@link RunGraph}: the
 * collapsed view (lib/graph/collapse.ts) puts it in place of the lane.
 */
export type TrialGroupNodeData = {
  trial: number;
  /** Id of the trial's header node (its `trial-start` event), which expanding brings back. */
  trialNodeId: string;
  outcome: "success" | "failure" | "halted" | null;
  endReason: string | null;
  steps: number;
  memoryInContext: number;
  memoryMissing: boolean;
  /** The Evaluator's verdict; null before the evaluation. */
  verdict: "pass" | "fail" | null;
  /** The reflection's current text; null when the trial has none. */
  reflection: string | null;
  reflectionEdited: boolean;
  /** Nodes of the lane the group stands for (lane background excluded). */
  hiddenNodes: number;
  /** Observations that repeat the step before (a loop) and actions that did not parse. */
  loops: number;
  invalidActions: number;
  callErrors: number;
  /** Code runs only: both verdicts of the trial. */
  code?: CodeTrialView;
};

/** The node of a collapsed trial, positioned where its lane header was. */
export type TrialGroupNode = {
  id: string;
  type: "trial-group";
  position: { x: number; y: number };
  data: TrialGroupNodeData;
  width: number;
  height: number;
  draggable: false;
  selectable: false;
  connectable: false;
  focusable: true;
  ariaLabel: string;
  zIndex?: number;
};

/** A node of the graph as drawn: a run-graph node, or a collapsed trial. */
export type RunGraphViewNode = RunGraphNode | TrialGroupNode;

/** The graph as drawn: collapsed trials are one group node each, memory edges rerouted to them. */
export interface RunGraphView {
  nodes: RunGraphViewNode[];
  edges: RunGraphEdge[];
  /** Trials drawn collapsed, ascending. */
  collapsed: number[];
}
