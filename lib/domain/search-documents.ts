import type { RunState } from "./run-state";

/**
 * The documents of the search index (docs/search.md): one per trial of each branch, built from the
 * branch's folded log. The run-level fields come from the log's config in force and the run's
 * record; the text nodes are the trial's thoughts, actions, observations and reflection with the
 * event that drew each (what a hit links to).
 */

/** A node whose text is searched. */
export type SearchNodeField = "thought" | "action" | "observation" | "reflection";

/** One searched text of a trial. */
export interface SearchTextNode {
  eventId: string;
  field: SearchNodeField;
  /** The ReAct step; null for the reflection. */
  step: number | null;
  text: string;
}

/** The trial's fields every filter reads (no text), as the index stores them. */
export interface TrialDocumentMeta {
  /** `<branchId>:<trial>`: unique in an index. */
  key: string;
  runId: string;
  branchId: string;
  /** ISO-8601 of the run's creation (newest runs are listed first). */
  runCreatedAt: string;
  runTitle: string;
  family: string;
  strategy: string;
  /** The Actor's model in force at the end of the log. */
  model: string;
  taskId: string;
  experimentId: string | null;
  arm: string | null;
  trial: number;
  outcome: "success" | "failure" | "halted" | null;
  /** USD over the trial's model calls; null when it made none or one was recorded unpriced. */
  costUsd: number | null;
  steps: number;
  /** Input plus output tokens of the trial's model calls. */
  tokens: number;
  /** Each distinct action text (trimmed) and how many steps of the trial took it. */
  actionCounts: Record<string, number>;
  /** Each distinct action text's first action event (a hit found by `repeat` or `action:` links there); absent in older index rows. */
  actionFirstEvents?: Record<string, string>;
  /** The trial's `trial-start` event (a hit with no text match links there). */
  startEventId: string;
  /** Every event id of the trial's nodes (annotations are matched on them). */
  eventIds: string[];
}

/** A trial with its text nodes (what is indexed). */
export interface TrialDocument extends TrialDocumentMeta {
  /** In trial order: each step's thought, action, observation; then the reflection. */
  nodes: SearchTextNode[];
}

/** What the run store knows of a run that its log does not carry. */
export interface RunFacts {
  runId: string;
  branchId: string;
  createdAt: string;
  title: string;
  experimentId: string | null;
  arm: string | null;
}

/** The index key of a trial. */
export function trialKey(branchId: string, trial: number): string {
  return `${branchId}:${trial}`;
}

/**
 * The documents of one branch: one per trial of its folded log (inherited trials included, so a
 * fork's trials are found on the fork too). Empty before `run-start`.
 */
export function trialDocuments(state: RunState, facts: RunFacts): TrialDocument[] {
  const config = state.config;
  if (!config) return [];
  return state.trials.map((trial) => {
    const nodes: SearchTextNode[] = [];
    const actionCounts: Record<string, number> = {};
    const actionFirstEvents: Record<string, string> = {};
    const eventIds = [trial.startEventId];
    for (const step of [...trial.steps].sort((a, b) => a.step - b.step)) {
      for (const [field, view] of [
        ["thought", step.thought],
        ["action", step.action],
        ["observation", step.observation],
      ] as const) {
        if (!view) continue;
        eventIds.push(view.eventId);
        if (view.text) nodes.push({ eventId: view.eventId, field, step: step.step, text: view.text });
      }
      const action = step.action?.text.trim();
      if (action) {
        actionCounts[action] = (actionCounts[action] ?? 0) + 1;
        if (step.action && actionFirstEvents[action] === undefined) actionFirstEvents[action] = step.action.eventId;
      }
    }
    if (trial.evaluation) eventIds.push(trial.evaluation.eventId);
    if (trial.reflection) {
      eventIds.push(trial.reflection.eventId);
      if (trial.reflection.text) nodes.push({ eventId: trial.reflection.eventId, field: "reflection", step: null, text: trial.reflection.text });
    }
    let costUsd: number | null = trial.callIds.length > 0 ? 0 : null;
    let tokens = 0;
    for (const callId of trial.callIds) {
      const call = state.calls[callId];
      if (!call) continue;
      tokens += call.usage.inputTokens + call.usage.outputTokens;
      costUsd = call.costUsd === null || costUsd === null ? null : costUsd + call.costUsd;
    }
    return {
      key: trialKey(facts.branchId, trial.trial),
      runId: facts.runId,
      branchId: facts.branchId,
      runCreatedAt: facts.createdAt,
      runTitle: facts.title,
      family: config.environment,
      strategy: config.strategy,
      model: config.models.actor.modelId,
      taskId: config.taskId,
      experimentId: facts.experimentId,
      arm: facts.arm,
      trial: trial.trial,
      outcome: trial.outcome,
      costUsd,
      steps: trial.steps.length,
      tokens,
      actionCounts,
      actionFirstEvents,
      startEventId: trial.startEventId,
      eventIds,
      nodes,
    };
  });
}

/** The document without its text nodes. */
export function metaOf(document: TrialDocument): TrialDocumentMeta {
  const { nodes: _nodes, ...meta } = document;
  return meta;
}
