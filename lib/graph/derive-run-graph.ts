// Over 400 lines: the one projection of a run into nodes and edges, every node kind in one place so
// identity sharing between renders and the layout keys stay consistent.

import { editedByLine } from "./change-authors";
import { isInsightItemId } from "@/lib/domain/insights";
import type { RunState, TrialView } from "@/lib/domain/fold-run";
import { CODE_NODE_HEIGHTS, codeActionView, codeAriaLabel, codeObservationView, codeRunOf, codeTrialSummary, codeTrialView, codeVerdictView, hidesThought } from "./code-views";
import { sameEdge, sameRecord } from "./equality";
import { missingMemory, promptText } from "./prompt-memory";
import { actionDisplay, familyOf, isThoughtAction, showsThought } from "./step-display";
import { createLayoutCache, layoutRunGraph, topologyKey, type LayoutCache, type LayoutLane, type LayoutResult } from "./layout";
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

function trialSpecs(trialView: TrialView, nextTrial: TrialView | undefined, previousTrial: TrialView | undefined, state: RunState): NodeSpec[] {
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

  const errors = state.callErrors.filter((error) => error.trial === trialView.trial);
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

interface GraphModel {
  lanes: LayoutLane[];
  /** Every node spec: each lane background followed by its nodes, in lane order. */
  specs: NodeSpec[];
  edges: RunGraphEdge[];
}

/** The trials in order with each one's node specs: the costly part of a model, the same for every live text of one state. */
interface TrialSpecs {
  trials: TrialView[];
  specs: NodeSpec[][];
}

function trialSpecsOf(state: RunState): TrialSpecs {
  const trials = [...state.trials].sort((a, b) => a.trial - b.trial);
  return { trials, specs: trials.map((trialView, index) => trialSpecs(trialView, trials[index + 1], trials[index - 1], state)) };
}

/** The semantic graph of a run (no positions): lanes, node specs and edges; `live` adds the node of the call in flight. */
function buildModel(state: RunState, perTrial: TrialSpecs, live: LiveCallInput | null): GraphModel {
  const { trials } = perTrial;
  const lanes: LayoutLane[] = [];
  const specs: NodeSpec[] = [];
  const edges: RunGraphEdge[] = [];

  trials.forEach((trialView, index) => {
    const nextTrial = trials[index + 1];
    const laneSpecs = [...(perTrial.specs[index] ?? [])];
    // The call in flight comes last in its trial: the next step, or the reflection after the evaluation.
    const liveSpec = liveCallSpec(trialView, live, state);
    if (liveSpec) laneSpecs.push(liveSpec);
    const laneId = laneNodeId(trialView.startEventId);
    specs.push({ id: laneId, type: "lane", data: { trial: trialView.trial, outcome: trialView.outcome } });
    lanes.push({
      laneId,
      nodes: laneSpecs.map((spec) => {
        const kind = spec.type as LaidOutKind;
        // Code nodes are taller (a few lines of code, two verdicts); the height is fixed per node.
        const height = "code" in spec.data && spec.data.code ? CODE_NODE_HEIGHTS[kind] : undefined;
        return height === undefined ? { id: spec.id, kind } : { id: spec.id, kind, height };
      }),
    });
    for (let i = 0; i < laneSpecs.length; i += 1) {
      const spec = laneSpecs[i];
      if (!spec) continue;
      specs.push(spec);
      const previous = laneSpecs[i - 1];
      if (previous) {
        edges.push({
          id: `flow:${previous.id}->${spec.id}`,
          source: previous.id,
          target: spec.id,
          sourceHandle: HANDLES.next,
          targetHandle: HANDLES.previous,
          className: "edge-flow",
          data: { kind: "flow" },
        });
      }
    }
    const reflection = trialView.reflection;
    if (reflection && nextTrial) {
      const inContext = nextTrial.memory.some((item) => item.id === reflection.eventId);
      edges.push({
        id: `memory:${reflection.eventId}->${nextTrial.startEventId}`,
        source: reflection.eventId,
        target: nextTrial.startEventId,
        sourceHandle: HANDLES.memoryOut,
        targetHandle: HANDLES.memoryIn,
        label: inContext ? "memory" : "memory (not in context)",
        className: inContext ? "edge-memory" : "edge-memory edge-memory-dropped",
        data: { kind: "memory", inContext },
      });
    }
  });
  return { lanes, specs, edges };
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

function positionedNode(spec: NodeSpec, layout: LayoutResult): RunGraphNode {
  const rect = spec.type === "lane" ? layout.lanes.get(spec.id) : layout.nodes.get(spec.id);
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

function reusable(previous: RunGraphNode | undefined, spec: NodeSpec, layout: LayoutResult): previous is RunGraphNode {
  if (!previous || previous.type !== spec.type) return false;
  const rect = spec.type === "lane" ? layout.lanes.get(spec.id) : layout.nodes.get(spec.id);
  if (!rect) return false;
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
 * - A node whose position and data are unchanged is returned as the *same
 *   object* as last time, and the arrays themselves are reused when nothing
 *   changed, so React Flow and memoised node components skip the work.
 * - Layout runs only for lanes whose topology (node ids and kinds) changed.
 * - The live node (the call in flight) keeps one id while its text streams in:
 *   a new piece of text changes that node's data only, never the layout.
 */
export function createRunGraphDeriver(): RunGraphDeriver {
  const layoutCache: LayoutCache = createLayoutCache();
  let layoutKey: string | null = null;
  let layout: LayoutResult | null = null;
  let previousNodes = new Map<string, RunGraphNode>();
  let previousEdges = new Map<string, RunGraphEdge>();
  let previous: RunGraph | null = null;
  // Token deltas re-derive with the same state: its per-trial specs are built once.
  let specsState: RunState | null = null;
  let specsOfState: TrialSpecs | null = null;

  return (state, live = null) => {
    if (specsOfState === null || specsState !== state) {
      specsOfState = trialSpecsOf(state);
      specsState = state;
    }
    const model = buildModel(state, specsOfState, live);
    const key = topologyKey(model.lanes);
    if (layout === null || key !== layoutKey) {
      layout = layoutRunGraph(model.lanes, layoutCache);
      layoutKey = key;
    }
    const currentLayout = layout;

    let changed = previous === null || previous.nodes.length !== model.specs.length || previous.edges.length !== model.edges.length;
    const nextNodeMap = new Map<string, RunGraphNode>();
    const nodes = model.specs.map((spec, index) => {
      const old = previousNodes.get(spec.id);
      const node = reusable(old, spec, currentLayout) ? old : positionedNode(spec, currentLayout);
      if (!changed && previous?.nodes[index] !== node) changed = true;
      nextNodeMap.set(spec.id, node);
      return node;
    });
    const nextEdgeMap = new Map<string, RunGraphEdge>();
    const edges = model.edges.map((edge, index) => {
      const old = previousEdges.get(edge.id);
      const kept = old && sameEdge(old, edge) ? old : edge;
      if (!changed && previous?.edges[index] !== kept) changed = true;
      nextEdgeMap.set(edge.id, kept);
      return kept;
    });

    previousNodes = nextNodeMap;
    previousEdges = nextEdgeMap;
    if (!changed && previous) return previous;
    previous = { nodes, edges };
    return previous;
  };
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
