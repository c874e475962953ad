// Over 400 lines: the one projection of a run into nodes and edges, every node kind in one place so
// identity sharing between renders and the layout keys stay consistent.

import { editedByLine } from "./change-authors";
import { isInsightItemId } from "@/lib/domain/insights";
import type { RunState, TrialView } from "@/lib/domain/fold-run";
import { CODE_NODE_HEIGHTS, codeActionView, codeAriaLabel, codeObservationView, codeRunOf, codeTrialSummary, codeTrialView, codeVerdictView, hidesThought } from "./code-views";
import { sameEdge, sameRecord } from "./equality";
import { missingMemory, promptText } from "./prompt-memory";
import { actionDisplay, familyOf, isThoughtAction, showsThought } from "./step-display";
import { createLayoutCache, placeLane, type LayoutCache, type LayoutLane, type Rect } from "./layout";
import { errorsByTrial, sameTrialInputs, trialInputs, type TrialInputs } from "./trial-memo";
import type { CallSource, GraphNodeDataMap, GraphNodeKind, GraphNodeOf, LiveCallInput, RunGraph, RunGraphEdge, RunGraphNode } from "./types";

type NodeSpec = { [K in GraphNodeKind]: { id: string; type: K; data: GraphNodeDataMap[K] } }[GraphNodeKind];
type LaidOutKind = Exclude<GraphNodeKind, "lane">;

/** Id of the background node of the lane whose header is `trialNodeId`. */
export function laneNodeId(trialNodeId: string): string {
  return `lane:${trialNodeId}`;
}

/** Id of the node of the call in flight: stable while it streams, so only its data changes with each piece of text. */
export function liveCallNodeId(live: Pick<LiveCallInput, "role" | "trial" | "step">): string {
  return `live:${live.trial}:${live.role}:${live.step ?? "reflection"}`;
}

/**
 * Whether the call's own events are already folded in (the step's thought or
 * action, or the trial's reflection): then its node takes the live node's place.
 */
function liveCallLanded(trial: TrialView, live: LiveCallInput): boolean {
  if (live.role === "reflector") return trial.reflection !== null;
  const step = trial.steps.find((candidate) => candidate.step === live.step);
  return step !== undefined && (step.thought !== null || step.action !== null);
}

/** The live node for `trialView`'s lane, or null (no call in flight there, or its events have landed). */
function liveCallSpec(trialView: TrialView, live: LiveCallInput | null, state: RunState): NodeSpec | null {
  if (live === null || live.trial !== trialView.trial || liveCallLanded(trialView, live)) return null;
  return {
    id: liveCallNodeId(live),
    type: "live-call",
    data: {
      role: live.role,
      trial: live.trial,
      step: live.step,
      startedAt: live.startedAt,
      text: live.text,
      ended: live.ended,
      joinedLate: live.joinedLate,
      monospace: codeRunOf(state) !== null,
    },
  };
}

/** Handle ids used by node components; edges name them explicitly. */
export const HANDLES = {
  /** Bottom of every lane node: to the next node of the same trial. */
  next: "next",
  /** Top of every lane node: from the previous node of the same trial. */
  previous: "previous",
  /** Right side of a reflection node. */
  memoryOut: "memory-out",
  /** Left side of a trial header. */
  memoryIn: "memory-in",
} as const;

function callSourceOf(state: RunState, callId: string | null): CallSource {
  if (callId === null) return null;
  return state.calls[callId]?.source ?? null;
}

/** Whether the trial's first Actor prompt misses memory it should carry (false before that call). */
function firstPromptMissesMemory(state: RunState, trialView: TrialView, previousTrial: TrialView | undefined): boolean {
  if (!state.config) return false;
  const firstCall = trialView.callIds.map((id) => state.calls[id]).find((call) => call?.role === "actor");
  if (!firstCall) return false;
  return (
    missingMemory({
      strategy: state.config.strategy,
      trial: trialView,
      previousTrial: previousTrial ?? null,
      prompt: promptText(firstCall.messages),
      step: firstCall.step,
    }) !== null
  );
}

/** `{ code: view }` when there is a code view (code runs), else nothing: other families' node data stay as they were. */
function codeField<T>(view: T | null | undefined): { code: T } | Record<never, never> {
  return view ? { code: view } : {};
}

function trialSpecs(trialView: TrialView, nextTrial: TrialView | undefined, previousTrial: TrialView | undefined, state: RunState, errors: readonly RunState["callErrors"][number][]): NodeSpec[] {
  const code = codeRunOf(state);
  const family = familyOf(state);
  const specs: NodeSpec[] = [
    {
      id: trialView.startEventId,
      type: "trial",
      data: {
        trial: trialView.trial,
        eventId: trialView.startEventId,
        memoryInContext: trialView.memory.length,
        // Only an ExpeL trial has insights: other trials keep their data shape.
        ...insightCount(trialView.memory),
        memoryEvicted: trialView.evicted.length,
        steps: trialView.steps.length,
        outcome: trialView.outcome,
        ...(trialView.cancelled ? { cancelled: true } : {}),
        endReason: trialView.endReason,
        memoryMissing: firstPromptMissesMemory(state, trialView, previousTrial),
        ...codeField(code && codeTrialView(trialView)),
      },
    },
  ];

  const steps = [...trialView.steps].sort((a, b) => a.step - b.step);
  let repeats = 0;
  let previousKey: string | null = null;
  for (const step of steps) {
    // Consecutive identical action + observation pairs: the loop the household Evaluator halts on.
    const key = step.action && step.observation ? `${step.action.text}\u0000${step.observation.text}` : null;
    repeats = key !== null && key === previousKey ? repeats + 1 : 1;
    previousKey = key;
    if (step.thought && !hidesThought(code, step) && showsThought(family, step.thought.text)) {
      specs.push({
        id: step.thought.eventId,
        type: "thought",
        data: {
          trial: trialView.trial,
          step: step.step,
          eventId: step.thought.eventId,
          callId: step.thought.callId,
          callSource: callSourceOf(state, step.thought.callId),
          text: step.thought.text,
          reasoningChars: step.thought.reasoning?.length ?? 0,
          recordedByAuthors: step.recordedByAuthors,
        },
      });
    }
    if (step.action) {
      specs.push({
        id: step.action.eventId,
        type: "action",
        data: {
          trial: trialView.trial,
          step: step.step,
          eventId: step.action.eventId,
          callId: step.action.callId,
          callSource: callSourceOf(state, step.action.callId),
          text: step.action.text,
          actionType: step.action.action?.type ?? null,
          argument: step.action.action?.argument ?? null,
          ...(step.action.action ? { display: actionDisplay(family, step.action.action.type, step.action.action.argument) } : {}),
          ...(step.action.action && isThoughtAction(family, step.action.action.type) ? { thought: true as const } : {}),
          parseError: step.action.parseError,
          invalid: step.action.action === null || step.action.parseError !== null,
          ignored: step.action.ignored,
          truncated: step.action.truncated,
          recordedByAuthors: step.recordedByAuthors,
          ...codeField(code && codeActionView(code, step.action)),
        },
      });
    }
    if (step.observation) {
      specs.push({
        id: step.observation.eventId,
        type: "observation",
        data: {
          trial: trialView.trial,
          step: step.step,
          eventId: step.observation.eventId,
          text: step.observation.text,
          done: step.observation.done,
          answer: step.observation.answer,
          ...worldState(step.observation.state),
          repeats,
          noEffect: NO_EFFECT.test(step.observation.text),
          ...codeField(code && codeObservationView(step.observation.state)),
        },
      });
    }
    for (const error of errors) {
      if (error.step === step.step) specs.push(callErrorSpec(error));
    }
  }
  // Errors of a step that never produced an event (the call failed before it), and of the reflector.
  const stepNumbers = new Set(steps.map((step) => step.step));
  for (const error of errors) {
    if (error.step === null || !stepNumbers.has(error.step)) specs.push(callErrorSpec(error));
  }

  // Self-Refine's rounds: after the trajectory, before the verdict on the refined answer.
  for (const round of trialView.refinements) {
    if (round.feedback === null) continue;
    specs.push({
      id: round.feedback.eventId,
      type: "refinement",
      data: {
        trial: trialView.trial,
        round: round.round,
        eventId: round.feedback.eventId,
        feedback: round.feedback.text,
        stop: round.feedback.stop,
        answer: round.answer?.text ?? null,
        feedbackCallId: round.feedback.callId,
        answerCallId: round.answer?.callId ?? null,
        callSource: callSourceOf(state, round.answer?.callId ?? round.feedback.callId),
        monospace: code !== null,
      },
    });
  }

  const evaluation = trialView.evaluation;
  if (evaluation) {
    specs.push({
      id: evaluation.eventId,
      type: "evaluation",
      data: {
        trial: trialView.trial,
        eventId: evaluation.eventId,
        verdict: evaluation.verdict,
        score: evaluation.score,
        feedback: evaluation.feedback,
        evaluatorKind: evaluation.evaluatorKind,
        oracle: evaluation.oracle,
        ...codeField(code && codeVerdictView(trialView, evaluation)),
        // An LLM judge's per-criterion scores.
        ...(evaluation.judge
          ? {
              judge: {
                weightedScore: evaluation.judge.weightedScore,
                threshold: evaluation.judge.threshold,
                modelId: evaluation.judge.modelId,
                criteria: evaluation.judge.criteria.map(({ id, weight, rawScore, score }) => ({ id, weight, rawScore, score })),
              },
            }
          : {}),
      },
    });
  }

  const reflection = trialView.reflection;
  if (reflection) {
    specs.push({
      id: reflection.eventId,
      type: "reflection",
      data: {
        trial: trialView.trial,
        eventId: reflection.eventId,
        callId: reflection.callId,
        callSource: callSourceOf(state, reflection.callId),
        text: reflection.text,
        originalText: reflection.originalText,
        edited: reflection.edits > 0,
        ...(reflection.editedBy ? { editedBy: editedByLine(reflection.editedBy) ?? undefined } : {}),
        inNextContext: nextTrial ? nextTrial.memory.some((item) => item.id === reflection.eventId) : null,
        warning: reflection.warning,
      },
    });
  }
  return specs;
}

/** Observations that say the action did nothing (household `Nothing happens.`, QA `Invalid Action…`). */
const NO_EFFECT = /^(Nothing happens\.|Invalid Action)/;

/** Location and inventory from an observation's optional world snapshot (household family). */
function worldState(state: Record<string, unknown> | null): { location: string | null; inventory: string[] | null } {
  const location = typeof state?.location === "string" ? state.location : null;
  const inventory = Array.isArray(state?.inventory) ? state.inventory.filter((item): item is string => typeof item === "string") : null;
  return { location, inventory };
}

function callErrorSpec(error: RunState["callErrors"][number]): NodeSpec {
  return {
    id: error.eventId,
    type: "call-error",
    data: {
      trial: error.trial,
      step: error.step,
      eventId: error.eventId,
      role: error.role,
      code: error.code,
      message: error.message,
    },
  };
}

/**
 * One trial's lane, ready to draw: its background and nodes (positioned), its flow edges and the
 * memory edge to the next trial, and the inputs it was derived from. The deriver keeps one per
 * trial view and re-derives it only when {@link sameTrialInputs} says the inputs changed.
 */
interface LanePieces {
  inputs: TrialInputs;
  laneId: string;
  nodes: RunGraphNode[];
  edges: RunGraphEdge[];
  /** The lane as a {@link LaneSegment} of the graph (one object per pieces, so views can memoise on it). */
  segment: LaneSegment;
}

/**
 * Derives one trial's lane: node specs, vertical layout (through `layoutCache`), positions at the
 * lane's index, flow edges and the memory edge. Nodes and edges equal to `previous`'s (the last
 * pieces drawn for the same lane) are handed back as the same objects.
 */
function deriveLane(state: RunState, inputs: TrialInputs, live: LiveCallInput | null, previous: LanePieces | undefined, layoutCache: LayoutCache): LanePieces {
  const { view: trialView, next: nextTrial } = inputs;
  const laneSpecs = trialSpecs(trialView, nextTrial, inputs.previous, state, inputs.errors);
  // The call in flight comes last in its trial: the next step, or the reflection after the evaluation.
  const liveSpec = liveCallSpec(trialView, live, state);
  if (liveSpec) laneSpecs.push(liveSpec);
  const laneId = laneNodeId(trialView.startEventId);
  const lane: LayoutLane = {
    laneId,
    nodes: laneSpecs.map((spec) => {
      const kind = spec.type as LaidOutKind;
      // Code nodes are taller (a few lines of code, two verdicts); the height is fixed per node.
      const height = "code" in spec.data && spec.data.code ? CODE_NODE_HEIGHTS[kind] : undefined;
      return height === undefined ? { id: spec.id, kind } : { id: spec.id, kind, height };
    }),
  };
  const placed = placeLane(lane, inputs.laneIndex, layoutCache.get(lane));
  const oldNodes = new Map<string, RunGraphNode>();
  for (const node of previous?.nodes ?? []) oldNodes.set(node.id, node);
  const oldEdges = new Map<string, RunGraphEdge>();
  for (const edge of previous?.edges ?? []) oldEdges.set(edge.id, edge);
  const keep = (edge: RunGraphEdge) => {
    const old = oldEdges.get(edge.id);
    return old && sameEdge(old, edge) ? old : edge;
  };

  const laneSpec: NodeSpec = { id: laneId, type: "lane", data: { trial: trialView.trial, outcome: trialView.outcome } };
  const nodes: RunGraphNode[] = [];
  for (const spec of [laneSpec, ...laneSpecs]) {
    const rect = spec.type === "lane" ? placed.lane : placed.nodes.get(spec.id);
    const old = oldNodes.get(spec.id);
    nodes.push(reusable(old, spec, rect) ? old : positionedNode(spec, rect));
  }
  const edges: RunGraphEdge[] = [];
  for (let i = 1; i < laneSpecs.length; i += 1) {
    const source = laneSpecs[i - 1]!.id;
    const target = laneSpecs[i]!.id;
    edges.push(keep({ id: `flow:${source}->${target}`, source, target, sourceHandle: HANDLES.next, targetHandle: HANDLES.previous, className: "edge-flow", data: { kind: "flow" } }));
  }
  const reflection = trialView.reflection;
  if (reflection && nextTrial) {
    const inContext = nextTrial.memory.some((item) => item.id === reflection.eventId);
    edges.push(
      keep({
        id: `memory:${reflection.eventId}->${nextTrial.startEventId}`,
        source: reflection.eventId,
        target: nextTrial.startEventId,
        sourceHandle: HANDLES.memoryOut,
        targetHandle: HANDLES.memoryIn,
        label: inContext ? "memory" : "memory (not in context)",
        className: inContext ? "edge-memory" : "edge-memory edge-memory-dropped",
        data: { kind: "memory", inContext },
      }),
    );
  }
  return { inputs, laneId, nodes, edges, segment: { trial: trialView.trial, nodes, edges } };
}

function ariaLabelOf(spec: NodeSpec): string {
  switch (spec.type) {
    case "lane":
      return `Trial ${spec.data.trial} lane`;
    case "trial":
      return `Trial ${spec.data.trial}: ${spec.data.memoryInContext} reflections in context${spec.data.memoryMissing ? " (missing from the Actor prompt)" : ""}${spec.data.outcome ? `, ${spec.data.outcome}` : ""}${spec.data.code ? `, ${codeTrialSummary(spec.data.code)}` : ""}`;
    case "thought":
      return `Trial ${spec.data.trial}, thought ${spec.data.step}${spec.data.callSource === "cache" ? " (from the cache)" : ""}`;
    case "action":
      if (spec.data.code) return codeAriaLabel.action(spec.data.trial, spec.data.step, spec.data.code);
      return `Trial ${spec.data.trial}, action ${spec.data.step}${spec.data.invalid ? " (invalid)" : ""}${spec.data.callSource === "cache" ? " (from the cache)" : ""}: ${spec.data.text}`;
    case "observation":
      if (spec.data.code) return codeAriaLabel.observation(spec.data.trial, spec.data.step, spec.data.code);
      return `Trial ${spec.data.trial}, observation ${spec.data.step}`;
    case "evaluation":
      if (spec.data.code) return codeAriaLabel.evaluation(spec.data.trial, spec.data.code);
      return `Trial ${spec.data.trial} evaluation: ${spec.data.verdict}${spec.data.oracle ? " (oracle)" : ""}`;
    case "reflection":
      return `Trial ${spec.data.trial} reflection${spec.data.edited ? " (edited)" : ""}${spec.data.callSource === "cache" ? " (from the cache)" : ""}`;
    case "refinement":
      return `Trial ${spec.data.trial}, Self-Refine round ${spec.data.round}: ${spec.data.stop ? "nothing left to fix" : spec.data.answer === null ? "feedback given" : "answer refined"}`;
    case "call-error":
      return `Trial ${spec.data.trial}: ${spec.data.role} model call failed`;
    case "live-call":
      return `Trial ${spec.data.trial}: ${spec.data.role === "actor" ? (spec.data.step === null ? "Self-Refine call" : `Actor step ${spec.data.step}`) : "self-reflection"} being generated`;
  }
}

function positionedNode(spec: NodeSpec, rect: Rect | undefined): RunGraphNode {
  const base = {
    id: spec.id,
    position: { x: rect?.x ?? 0, y: rect?.y ?? 0 },
    width: rect?.width ?? 0,
    height: rect?.height ?? 0,
    draggable: false as const,
    selectable: false as const,
    connectable: false as const,
    focusable: spec.type !== "lane",
    ariaLabel: ariaLabelOf(spec),
  };
  // Lane backgrounds sit behind the edges and the nodes.
  if (spec.type === "lane") return { ...base, type: "lane", data: spec.data, zIndex: -1 } satisfies GraphNodeOf<"lane">;
  return { ...base, type: spec.type, data: spec.data } as RunGraphNode;
}

function reusable(previous: RunGraphNode | undefined, spec: NodeSpec, rect: Rect | undefined): previous is RunGraphNode {
  if (!previous || previous.type !== spec.type || !rect) return false;
  return (
    previous.position.x === rect.x &&
    previous.position.y === rect.y &&
    previous.width === rect.width &&
    previous.height === rect.height &&
    sameRecord(previous.data, spec.data)
  );
}

/**
 * Derives the graph of a run, reusing node/edge objects from the previous call
 * when nothing about them changed. `live` (optional) is the model call in
 * flight with its streamed text, drawn as a `live-call` node.
 */
export type RunGraphDeriver = (state: RunState, live?: LiveCallInput | null) => RunGraph;

/**
 * Creates a memoising {@link deriveRunGraph}: call it with each new folded state.
 *
 * - Node ids are event ids (the trial header is its `trial-start` event, a step
 *   node its `step-*` event, …), so nodes keep their identity as events arrive.
 * - Each trial's lane (its nodes, edges and layout) is remembered by the trial
 *   view's identity (lib/graph/trial-memo.ts): a state that holds the same trial
 *   object with the same neighbours, config and errors gets the same pieces
 *   without deriving them — a replay cursor's move (which shares the trials it
 *   does not touch, lib/domain/replay-fold.ts) re-derives only the trials that differ.
 * - A re-derived lane hands back, as the *same object*, every node whose position
 *   and data are unchanged and every unchanged edge; the arrays themselves are reused
 *   when nothing changed, so React Flow and memoised node components skip the work.
 * - The live node (the call in flight) keeps one id while its text streams in:
 *   a new piece of text changes that node's data only, never the layout.
 */
export function createRunGraphDeriver(): RunGraphDeriver {
  const layoutCache: LayoutCache = createLayoutCache();
  // Per trial view: its lane as last derived (a lane with the call in flight is never kept here: its text changes).
  const lanesByView = new WeakMap<TrialView, LanePieces>();
  // Per lane id: the pieces drawn last time, so a re-derived lane keeps its unchanged nodes' identity.
  let lastByLane = new Map<string, LanePieces>();
  let previous: RunGraph | null = null;

  return (state, live = null) => {
    const trials = [...state.trials].sort((a, b) => a.trial - b.trial);
    const errors = errorsByTrial(state);
    const nextByLane = new Map<string, LanePieces>();
    const segments: LaneSegment[] = [];
    const nodes: RunGraphNode[] = [];
    const edges: RunGraphEdge[] = [];
    for (let index = 0; index < trials.length; index += 1) {
      const inputs = trialInputs(state, trials, index, errors);
      const livesHere = live !== null && live.trial === inputs.view.trial;
      const known = livesHere ? undefined : lanesByView.get(inputs.view);
      let pieces: LanePieces;
      if (known && sameTrialInputs(known.inputs, inputs)) pieces = known;
      else {
        pieces = deriveLane(state, inputs, live, lastByLane.get(laneNodeId(inputs.view.startEventId)), layoutCache);
        if (!livesHere) lanesByView.set(inputs.view, pieces);
      }
      nextByLane.set(pieces.laneId, pieces);
      segments.push(pieces.segment);
      for (const node of pieces.nodes) nodes.push(node);
      for (const edge of pieces.edges) edges.push(edge);
    }
    lastByLane = nextByLane;
    const same = previous !== null && sameItems(previous.nodes, nodes) && sameItems(previous.edges, edges);
    if (same && previous) return previous;
    previous = { nodes, edges };
    segmentsByGraph.set(previous, segments);
    return previous;
  };
}

/**
 * One trial's part of a derived graph: its nodes (lane background first) and edges, as they sit
 * in the graph's arrays. The same arrays while the trial's lane is unchanged.
 */
export interface LaneSegment {
  trial: number;
  nodes: readonly RunGraphNode[];
  edges: readonly RunGraphEdge[];
}

const segmentsByGraph = new WeakMap<RunGraph, readonly LaneSegment[]>();

/**
 * The lanes a graph made by {@link createRunGraphDeriver} was put together from, in order (their
 * nodes and edges concatenated are the graph's), or null for a graph made otherwise. Lets views of
 * the graph (the collapsed view, trial summaries) work per lane and memoise on the lanes' arrays.
 */
export function laneSegments(graph: RunGraph): readonly LaneSegment[] | null {
  return segmentsByGraph.get(graph) ?? null;
}

/** The same objects in the same order. */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * Projects a folded run into React Flow nodes and edges: one vertical lane per
 * trial (a `trial` header, then thought → action → observation per step, any
 * model-call errors, the evaluation and the reflection), plus a `memory` edge
 * from each reflection into the next trial's header. Code runs add a `code`
 * view to their nodes and leave out empty thoughts (code-views.ts). `live` adds
 * the node of the model call in flight at the end of its trial's lane, until
 * the call's events arrive. Pure; for structural sharing across calls use
 * {@link createRunGraphDeriver}.
 */
export function deriveRunGraph(state: RunState, live: LiveCallInput | null = null): RunGraph {
  return createRunGraphDeriver()(state, live);
}

/** `{ insightsInContext: n }` when the trial carried ExpeL insights (n > 0), else nothing. */
function insightCount(memory: TrialView["memory"]): { insightsInContext?: number } {
  const count = memory.filter((item) => isInsightItemId(item.id)).length;
  return count > 0 ? { insightsInContext: count } : {};
}
