import { HANDLES, laneSegments, type LaneSegment } from "./derive-run-graph";
import { sameEdge, sameRecord } from "./equality";
import { NODE_WIDTH } from "./layout";
import type { RunGraph, RunGraphEdge, RunGraphNode, RunGraphView, RunGraphViewNode, TrialGroupNode, TrialGroupNodeData } from "./types";

/**
 * Collapsible trials (DESIGN.md §5, decision 0013): a collapsed trial is drawn
 * as one group node in place of its lane, and memory edges into or out of it
 * attach to that node. Which trials start collapsed is a rule of the graph's
 * size: a small run shows everything; in a long run the old trials start
 * collapsed and the newest stay open. A trial in progress and the trial of the
 * selected node are always drawn expanded. Pure: the run graph component keeps
 * the reader's own choices and hands them in.
 */

/** Height of a collapsed trial's node (px); its width is {@link NODE_WIDTH}. */
export const TRIAL_GROUP_HEIGHT = 150;

/** When old trials start collapsed, and how many of the newest stay open. */
export interface CollapsePolicy {
  /** A graph with more nodes than this is "long": its old trials start collapsed. */
  largeGraphNodes: number;
  /** How many of the newest trials stay expanded in a long run. */
  keepRecent: number;
}

/** The default policy: above 300 nodes (~7 household trials), all but the 2 newest trials start collapsed. */
export const COLLAPSE_POLICY: CollapsePolicy = { largeGraphNodes: 300, keepRecent: 2 };

/** Id of the group node of the trial whose header (`trial-start` event) is `trialNodeId`. */
export function trialGroupNodeId(trialNodeId: string): string {
  return `group:${trialNodeId}`;
}

/** The trial a node belongs to (every run-graph node's data names it). */
function trialOfNode(node: RunGraphNode): number {
  return node.data.trial;
}

/** Summaries already made, per graph object (a graph is never changed once derived: the deriver makes a new one). */
const summariesByGraph = new WeakMap<RunGraph, Map<number, TrialGroupNodeData>>();

/**
 * Each trial's summary, as its group node shows it, in trial order. O(nodes) the first time for a
 * graph object, then remembered for it (the collapse hook, the default and the view each ask).
 * Read-only: the same map is handed to every caller.
 */
export function summarizeTrials(graph: RunGraph): Map<number, TrialGroupNodeData> {
  let known = summariesByGraph.get(graph);
  if (!known) {
    known = summarize(graph);
    summariesByGraph.set(graph, known);
  }
  return known;
}

/** Per lane segment of a derived graph: its trial's summary (null: no header), made once per segment object. */
const summaryBySegment = new WeakMap<LaneSegment, TrialGroupNodeData | null>();

/** The graph's lane segments when it has them, one per trial number (else null: summarise node by node). */
function distinctSegments(graph: RunGraph): readonly LaneSegment[] | null {
  const segments = laneSegments(graph);
  if (!segments) return null;
  for (let index = 1; index < segments.length; index += 1) if (segments[index]!.trial <= segments[index - 1]!.trial) return null;
  return segments;
}

function summarize(graph: RunGraph): Map<number, TrialGroupNodeData> {
  const segments = distinctSegments(graph);
  if (!segments) return summarizeNodes(graph.nodes);
  // A derived graph: one summary per lane, re-made only for lanes whose arrays changed.
  const summaries = new Map<number, TrialGroupNodeData>();
  for (const segment of segments) {
    let summary = summaryBySegment.get(segment);
    if (summary === undefined) {
      summary = summarizeNodes(segment.nodes).get(segment.trial) ?? null;
      summaryBySegment.set(segment, summary);
    }
    if (summary) summaries.set(segment.trial, summary);
  }
  return summaries;
}

function summarizeNodes(nodes: readonly RunGraphNode[]): Map<number, TrialGroupNodeData> {
  const summaries = new Map<number, TrialGroupNodeData>();
  const of = (trial: number): TrialGroupNodeData => {
    let summary = summaries.get(trial);
    if (!summary) {
      summary = {
        trial,
        trialNodeId: "",
        outcome: null,
        endReason: null,
        steps: 0,
        memoryInContext: 0,
        memoryMissing: false,
        verdict: null,
        reflection: null,
        reflectionEdited: false,
        hiddenNodes: 0,
        loops: 0,
        invalidActions: 0,
        callErrors: 0,
      };
      summaries.set(trial, summary);
    }
    return summary;
  };
  for (const node of nodes) {
    if (node.type === "lane") continue;
    const summary = of(trialOfNode(node));
    summary.hiddenNodes += 1;
    switch (node.type) {
      case "trial":
        summary.trialNodeId = node.id;
        summary.outcome = node.data.outcome;
        summary.endReason = node.data.endReason;
        summary.steps = node.data.steps;
        summary.memoryInContext = node.data.memoryInContext;
        summary.memoryMissing = node.data.memoryMissing;
        if (node.data.code) summary.code = node.data.code;
        break;
      case "evaluation":
        summary.verdict = node.data.verdict;
        break;
      case "reflection":
        summary.reflection = node.data.text;
        summary.reflectionEdited = node.data.edited;
        break;
      case "observation":
        if (node.data.repeats >= 2) summary.loops += 1;
        break;
      case "action":
        if (node.data.invalid) summary.invalidActions += 1;
        break;
      case "call-error":
        summary.callErrors += 1;
        break;
      default:
        break;
    }
  }
  // A trial without its header node (a damaged log) cannot be drawn as a group.
  for (const [trial, summary] of summaries) if (summary.trialNodeId === "") summaries.delete(trial);
  return new Map([...summaries].sort(([a], [b]) => a - b));
}

/** Trials that are never drawn collapsed: the ones in progress, and the one holding `selectedNodeId`. */
export function pinnedTrials(graph: RunGraph, selectedNodeId: string | null): Set<number> {
  const pinned = new Set<number>();
  if (distinctSegments(graph)) {
    // A derived graph: the trials in progress from the (per-lane) summaries; a pass over the nodes only to find a selected one.
    for (const summary of summarizeTrials(graph).values()) if (summary.outcome === null) pinned.add(summary.trial);
    if (selectedNodeId === null) return pinned;
  }
  for (const node of graph.nodes) {
    if (node.type === "trial" && node.data.outcome === null) pinned.add(node.data.trial);
    if (node.id === selectedNodeId && node.type !== "lane") pinned.add(trialOfNode(node));
  }
  return pinned;
}

/**
 * The trials a graph starts with collapsed: none when it has at most
 * `policy.largeGraphNodes` nodes; otherwise every trial but the
 * `policy.keepRecent` newest (a trial in progress is never among them).
 */
export function defaultCollapsedTrials(graph: RunGraph, policy: CollapsePolicy = COLLAPSE_POLICY): number[] {
  if (graph.nodes.length <= policy.largeGraphNodes) return [];
  const trials = [...summarizeTrials(graph).values()];
  return trials
    .slice(0, Math.max(0, trials.length - policy.keepRecent))
    .filter((summary) => summary.outcome !== null)
    .map((summary) => summary.trial);
}

/** Inputs of {@link collapsedTrials}. */
export interface CollapseInput {
  graph: RunGraph;
  /** `auto`: {@link defaultCollapsedTrials}; `off`: start with every trial expanded. */
  mode: "auto" | "off";
  /** The reader's choices by trial: true = collapsed, false = expanded. They win over the default. */
  overrides: ReadonlyMap<number, boolean>;
  selectedNodeId: string | null;
  policy?: CollapsePolicy;
}

/** The trials to draw collapsed, ascending: the default, then the reader's choices, minus the {@link pinnedTrials}. */
export function collapsedTrials({ graph, mode, overrides, selectedNodeId, policy = COLLAPSE_POLICY }: CollapseInput): number[] {
  const collapsed = new Set(mode === "auto" ? defaultCollapsedTrials(graph, policy) : []);
  for (const [trial, isCollapsed] of overrides) {
    if (isCollapsed) collapsed.add(trial);
    else collapsed.delete(trial);
  }
  for (const trial of pinnedTrials(graph, selectedNodeId)) collapsed.delete(trial);
  const known = summarizeTrials(graph);
  return [...collapsed].filter((trial) => known.has(trial)).sort((a, b) => a - b);
}

function groupAriaLabel(data: TrialGroupNodeData): string {
  const parts = [data.outcome ?? "in progress", `${data.steps} ${data.steps === 1 ? "step" : "steps"}`];
  if (data.verdict) parts.push(`verdict ${data.verdict}`);
  if (data.reflection !== null) parts.push("a reflection");
  return `Trial ${data.trial}, collapsed: ${parts.join(", ")}. Press Enter to expand.`;
}

function groupNode(header: RunGraphNode, data: TrialGroupNodeData): TrialGroupNode {
  return {
    id: trialGroupNodeId(header.id),
    type: "trial-group",
    position: header.position,
    data,
    width: NODE_WIDTH,
    height: TRIAL_GROUP_HEIGHT,
    draggable: false,
    selectable: false,
    connectable: false,
    focusable: true,
    ariaLabel: groupAriaLabel(data),
  };
}

/** Builds a {@link RunGraphView} from a graph and the trials to collapse; see {@link createCollapsedViewDeriver}. */
export type CollapsedViewDeriver = (graph: RunGraph, collapsed: readonly number[]) => RunGraphView;

/**
 * Creates a memoising collapsed-view builder. Nodes of expanded trials are the
 * graph's own objects; a group node or rerouted edge equal by value to last
 * time's is the same object; and the same view object comes back when neither
 * the graph nor the collapsed trials changed, so React Flow skips the work.
 * With nothing collapsed, the view holds the graph's own arrays.
 */
export function createCollapsedViewDeriver(): CollapsedViewDeriver {
  let previous: { graph: RunGraph; key: string; view: RunGraphView } | null = null;
  let previousGroups = new Map<string, TrialGroupNode>();
  let previousEdges = new Map<string, RunGraphEdge>();

  return (graph, collapsedList) => {
    const collapsed = [...new Set(collapsedList)].sort((a, b) => a - b);
    const key = collapsed.join(",");
    if (previous && previous.graph === graph && previous.key === key) return previous.view;
    if (collapsed.length === 0) {
      const view: RunGraphView = { nodes: graph.nodes, edges: graph.edges, collapsed: [] };
      previous = { graph, key, view };
      return view;
    }

    const hidden = new Set(collapsed);
    const summaries = summarizeTrials(graph);
    const groupOf = (header: RunGraphNode, summary: TrialGroupNodeData): TrialGroupNode => {
      const fresh = groupNode(header, summary);
      const old = previousGroups.get(fresh.id);
      return old && old.position.x === fresh.position.x && old.position.y === fresh.position.y && sameRecord(old.data, fresh.data) ? old : fresh;
    };
    const reroute = (edge: RunGraphEdge, sourceGroup: string | null, targetGroup: string | null): RunGraphEdge => {
      const rerouted: RunGraphEdge = {
        ...edge,
        source: sourceGroup ?? edge.source,
        sourceHandle: sourceGroup ? HANDLES.memoryOut : edge.sourceHandle,
        target: targetGroup ?? edge.target,
        targetHandle: targetGroup ? HANDLES.memoryIn : edge.targetHandle,
      };
      const old = previousEdges.get(edge.id);
      return old && sameEdge(old, rerouted) ? old : rerouted;
    };
    const segments = distinctSegments(graph);
    if (segments) {
      // A derived graph, lane by lane: a collapsed lane costs one group node, not a pass over its nodes.
      const view = collapsedBySegments(segments, hidden, summaries, groupOf, reroute, collapsed);
      previousGroups = view.groups;
      previousEdges = view.rerouted;
      previous = { graph, key, view: view.view };
      return view.view;
    }
    const trialOf = new Map<string, number>();
    const nodes: RunGraphViewNode[] = [];
    const groups = new Map<string, TrialGroupNode>();
    for (const node of graph.nodes) {
      const trial = trialOfNode(node);
      trialOf.set(node.id, trial);
      if (!hidden.has(trial)) {
        nodes.push(node);
        continue;
      }
      const summary = summaries.get(trial);
      if (node.type !== "trial" || !summary) continue;
      const kept = groupOf(node, summary);
      groups.set(kept.id, kept);
      nodes.push(kept);
    }

    const edges: RunGraphEdge[] = [];
    const nextEdges = new Map<string, RunGraphEdge>();
    const groupIds = new Map<number, string>();
    for (const trial of hidden) {
      const headerId = summaries.get(trial)?.trialNodeId;
      if (headerId) groupIds.set(trial, trialGroupNodeId(headerId));
    }
    const groupIdOf = (nodeId: string): string | null => {
      const trial = trialOf.get(nodeId);
      return trial === undefined ? null : (groupIds.get(trial) ?? null);
    };
    for (const edge of graph.edges) {
      // Flow edges stay inside their trial: a collapsed trial has none (one lookup, no id built).
      if (edge.data.kind !== "memory") {
        const trial = trialOf.get(edge.source);
        if (trial === undefined || !groupIds.has(trial)) edges.push(edge);
        continue;
      }
      const sourceGroup = groupIdOf(edge.source);
      const targetGroup = groupIdOf(edge.target);
      if (sourceGroup === null && targetGroup === null) {
        edges.push(edge);
        continue;
      }
      const kept = reroute(edge, sourceGroup, targetGroup);
      nextEdges.set(edge.id, kept);
      edges.push(kept);
    }

    previousGroups = groups;
    previousEdges = nextEdges;
    const view: RunGraphView = { nodes, edges, collapsed };
    previous = { graph, key, view };
    return view;
  };
}

/** Per lane segment: its group node, made from that summary (the same lane and summary draw the same group). */
const groupBySegment = new WeakMap<LaneSegment, { summary: TrialGroupNodeData; group: TrialGroupNode }>();

/**
 * The collapsed view of a derived graph from its lane segments: the same view as the node-by-node
 * pass, in O(trials + drawn nodes and edges). A lane's memory edge leaves its own reflection and
 * enters the next trial's header (lib/graph/derive-run-graph.ts).
 */
function collapsedBySegments(
  segments: readonly LaneSegment[],
  hidden: ReadonlySet<number>,
  summaries: ReadonlyMap<number, TrialGroupNodeData>,
  groupOf: (header: RunGraphNode, summary: TrialGroupNodeData) => TrialGroupNode,
  reroute: (edge: RunGraphEdge, sourceGroup: string | null, targetGroup: string | null) => RunGraphEdge,
  collapsed: number[],
): { view: RunGraphView; groups: Map<string, TrialGroupNode>; rerouted: Map<string, RunGraphEdge> } {
  const groupIds = new Map<number, string>();
  const trialOfHeader = new Map<string, number>();
  for (const [trial, summary] of summaries) {
    trialOfHeader.set(summary.trialNodeId, trial);
    if (hidden.has(trial)) groupIds.set(trial, trialGroupNodeId(summary.trialNodeId));
  }
  const nodes: RunGraphViewNode[] = [];
  const edges: RunGraphEdge[] = [];
  const groups = new Map<string, TrialGroupNode>();
  const rerouted = new Map<string, RunGraphEdge>();
  for (const segment of segments) {
    const hiddenHere = hidden.has(segment.trial);
    if (hiddenHere) {
      const summary = summaries.get(segment.trial);
      const known = groupBySegment.get(segment);
      const header = known?.summary === summary ? null : segment.nodes.find((node) => node.type === "trial");
      const group = known && known.summary === summary ? known.group : header && summary ? groupOf(header, summary) : null;
      if (group && summary) {
        groupBySegment.set(segment, { summary, group });
        groups.set(group.id, group);
        nodes.push(group);
      }
    } else for (const node of segment.nodes) nodes.push(node);
    const sourceGroup = groupIds.get(segment.trial) ?? null;
    // A collapsed lane keeps only its memory edge, which the deriver puts after the flow edges: no pass over its flow edges.
    let from = 0;
    if (sourceGroup !== null) for (from = segment.edges.length; from > 0 && segment.edges[from - 1]!.data.kind === "memory"; from -= 1);
    for (let index = from; index < segment.edges.length; index += 1) {
      const edge = segment.edges[index]!;
      if (edge.data.kind !== "memory") {
        if (sourceGroup === null) edges.push(edge);
        continue;
      }
      const targetTrial = trialOfHeader.get(edge.target);
      const targetGroup = targetTrial === undefined ? null : (groupIds.get(targetTrial) ?? null);
      if (sourceGroup === null && targetGroup === null) {
        edges.push(edge);
        continue;
      }
      const kept = reroute(edge, sourceGroup, targetGroup);
      rerouted.set(edge.id, kept);
      edges.push(kept);
    }
  }
  return { view: { nodes, edges, collapsed }, groups, rerouted };
}
