import type { RunGraph, RunGraphNode, TrialNodeData } from "./types";

/**
 * The run as a transcript: the text alternative of the run graph (WCAG 2.1
 * 1.1.1, non-text content). Pure data built from the same {@link RunGraph} the
 * canvas draws, so the two can never disagree: every node of the graph except
 * the lane backgrounds appears exactly once, in the graph's own order (trial
 * by trial, then step by step, then the evaluation and the reflection), under
 * its trial. Replay and lessons change the graph they derive, and with it the
 * transcript.
 */

/** A node that has its own line in the transcript: any graph node but a lane background or a trial header. */
export type TranscriptEntry = Exclude<RunGraphNode, { type: "lane" | "trial" }>;

/** A reflection of an earlier trial that reached this trial through the episodic memory (a memory edge of the graph). */
export interface TranscriptMemoryItem {
  /** Id of the reflection's node (its event id). */
  reflectionNodeId: string;
  /** The trial that wrote it. */
  fromTrial: number;
  /** Its current text (edits applied). */
  text: string;
  /** False when the memory window Ω left it out of this trial's context. */
  inContext: boolean;
}

/** One step of a trial: its thought, action, observation, and any call error or call in flight of that step, in graph order. */
export interface TranscriptStep {
  step: number;
  entries: TranscriptEntry[];
}

/** One trial: a headed section of the transcript. */
export interface TranscriptTrial {
  trial: number;
  /** Id of the trial's header node (its `trial-start` event). */
  headerNodeId: string;
  header: TrialNodeData;
  /** The reflection carried in from the previous trial (the graph draws one memory edge per trial), when there is one. */
  memoryIn: TranscriptMemoryItem[];
  steps: TranscriptStep[];
  /** After the steps: the evaluation, the reflection, a call error outside any step, the Self-Reflection call in flight. */
  closing: TranscriptEntry[];
}

/** The whole transcript, trials ascending. */
export interface RunTranscript {
  trials: TranscriptTrial[];
}

function stepOf(node: TranscriptEntry): number | null {
  switch (node.type) {
    case "thought":
    case "action":
    case "observation":
      return node.data.step;
    case "call-error":
    case "live-call":
      return node.data.step;
    default:
      return null;
  }
}

/**
 * Groups the graph's nodes into trials and steps.
 *
 * @param graph a run graph from `deriveRunGraph` / `createRunGraphDeriver` (the full graph, not the collapsed view:
 *   a collapsed trial keeps all its steps in the transcript).
 * @returns the transcript; a node whose trial has no header node yet is left out (the graph draws none such).
 */
export function runTranscript(graph: RunGraph): RunTranscript {
  const trials: TranscriptTrial[] = [];
  const byTrial = new Map<number, TranscriptTrial>();
  const nodesById = new Map<string, RunGraphNode>();
  for (const node of graph.nodes) nodesById.set(node.id, node);

  for (const node of graph.nodes) {
    if (node.type === "lane") continue;
    if (node.type === "trial") {
      const section: TranscriptTrial = { trial: node.data.trial, headerNodeId: node.id, header: node.data, memoryIn: [], steps: [], closing: [] };
      byTrial.set(node.data.trial, section);
      trials.push(section);
      continue;
    }
    const section = byTrial.get(node.data.trial);
    if (!section) continue;
    const step = stepOf(node);
    if (step === null) {
      section.closing.push(node);
      continue;
    }
    const last = section.steps[section.steps.length - 1];
    if (last && last.step === step) last.entries.push(node);
    else section.steps.push({ step, entries: [node] });
  }

  for (const edge of graph.edges) {
    if (edge.data.kind !== "memory") continue;
    const reflection = nodesById.get(edge.source);
    const target = nodesById.get(edge.target);
    if (reflection?.type !== "reflection" || target?.type !== "trial") continue;
    byTrial.get(target.data.trial)?.memoryIn.push({
      reflectionNodeId: reflection.id,
      fromTrial: reflection.data.trial,
      text: reflection.data.text,
      inContext: edge.data.inContext !== false,
    });
  }

  trials.sort((a, b) => a.trial - b.trial);
  return { trials };
}

/**
 * Every node id the transcript gives a place, in reading order: each trial's header, its steps' entries, then its
 * closing entries. The same ids, in the same order, as the graph's non-lane nodes.
 */
export function transcriptNodeIds(transcript: RunTranscript): string[] {
  const ids: string[] = [];
  for (const trial of transcript.trials) {
    ids.push(trial.headerNodeId);
    for (const step of trial.steps) for (const entry of step.entries) ids.push(entry.id);
    for (const entry of trial.closing) ids.push(entry.id);
  }
  return ids;
}

/** The element id of a node's place in the transcript (for focus and `aria-controls`). */
export function transcriptElementId(nodeId: string): string {
  return `transcript-${nodeId}`;
}
