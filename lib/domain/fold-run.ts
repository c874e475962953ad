import { changeAuthorOf, type ChangeAuthor } from "./change-authors";
import { INSIGHT_MEMORY_PREFIX } from "./insights";
import { NO_BREAKPOINTS } from "./config";
import type { RunEvent, RunEventOf } from "./events";
import { addSpend } from "./budget";
import { foldTreeEvent } from "./fold-tree";

export type { LogStatus, ReflectionView, RefinementView, RunState, RunTotals, StepView, TrialView } from "./run-state";
import type { RunState, StepView, TrialView } from "./run-state";

/** Events that mean the run moved on (used for Step and for re-arming breakpoints). */
const PROGRESS_EVENTS: ReadonlySet<RunEvent["type"]> = new Set([
  "trial-start",
  "model-call-end",
  "step-observation",
  "evaluation-end",
  "trial-end",
  "reflection-end",
]);

/** The state of an empty log. */
export function emptyRunState(): RunState {
  return {
    config: null,
    startConfig: null,
    status: "running",
    pause: null,
    outcome: null,
    error: null,
    trials: [],
    memory: [],
    breakpoints: NO_BREAKPOINTS,
    pauseRequested: false,
    cancelRequested: false,
    pendingAction: null,
    stepping: false,
    resumedFrom: null,
    progressSinceResume: 0,
    actionsSinceResume: 0,
    requestCounts: {},
    calls: {},
    callErrors: [],
    totals: { modelCalls: 0, liveCalls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 },
    spend: { usd: 0, tokens: 0 },
    carriedIn: null,
    insightsCarriedIn: null,
    stop: null,
    replayMode: "live",
    fork: null,
    tree: null,
    lastSeq: 0,
    eventCount: 0,
  };
}

/** Per trials array: the first view of each trial number among its first `length` entries (the fold only appends to it). */
const trialIndexes = new WeakMap<TrialView[], { length: number; first: Map<number, TrialView> }>();

/**
 * The first view of trial `trial` (as `state.trials.find` would give), through an index kept
 * beside the array: a search from the front for every event made a long run's fold quadratic
 * in its trials (840 trials: most of the fold's time).
 */
function currentTrial(state: RunState, trial: number): TrialView | undefined {
  let index = trialIndexes.get(state.trials);
  if (!index || index.length > state.trials.length) {
    index = { length: 0, first: new Map() };
    trialIndexes.set(state.trials, index);
  }
  for (; index.length < state.trials.length; index.length += 1) {
    const view = state.trials[index.length]!;
    if (!index.first.has(view.trial)) index.first.set(view.trial, view);
  }
  return index.first.get(trial);
}

function stepOf(trialView: TrialView, step: number): StepView {
  let view = trialView.steps.find((s) => s.step === step);
  if (!view) {
    view = { step, thought: null, action: null, observation: null, recordedByAuthors: false };
    trialView.steps.push(view);
  }
  return view;
}

function applyReflectionEdit(state: RunState, event: RunEventOf<"reflection-edit">, author: ChangeAuthor | null): void {
  const { reflectionEventId, newText } = event.data;
  for (const trialView of state.trials) {
    if (trialView.reflection?.eventId === reflectionEventId) {
      trialView.reflection.text = newText;
      trialView.reflection.edits += 1;
      // The last edit's author; an edit with none known shows none (not an older edit's author).
      if (author) trialView.reflection.editedBy = author;
      else delete trialView.reflection.editedBy;
    }
  }
  state.memory = state.memory.map((item) => (item.id === reflectionEventId ? { ...item, text: newText } : item));
}

/**
 * Applies one event to a state, in place. Exposed for incremental folding;
 * prefer {@link foldRun}. Unknown trial numbers are ignored rather than thrown on,
 * so a view of a damaged log still renders what it can.
 */
export function applyEvent(state: RunState, event: RunEvent): void {
  state.lastSeq = event.seq;
  state.eventCount += 1;
  if (PROGRESS_EVENTS.has(event.type)) {
    state.progressSinceResume += 1;
    state.resumedFrom = null;
  }
  if (event.type === "step-observation" || event.type === "evaluation-end" || event.type === "reflection-end" || event.type === "refine-feedback" || event.type === "refine-answer") state.actionsSinceResume += 1;
  const author = changeAuthorOf(event);
  if (author) (state.changes ??= []).push({ eventId: event.id, seq: event.seq, type: event.type, trialsStarted: state.trials.length, ...author });
  // The search tree reads the step's thought and action, folded before its observation (fold-tree.ts).
  if (state.tree !== null || event.type === "tree-select") foldTreeEvent(state, event);
  switch (event.type) {
    case "run-start":
      state.startConfig = event.data.config;
      state.config = event.data.config;
      state.replayMode = event.data.config.replayMode;
      state.breakpoints = event.data.config.breakpoints;
      state.status = "running";
      return;
    case "branch-start":
      // The parent's pause or end after the fork point is not on this path; the branch runs on.
      state.status = "running";
      state.pause = null;
      state.pauseRequested = false;
      state.cancelRequested = false;
      state.replayMode = event.data.replayMode;
      state.fork = event.data;
      return;
    case "trial-start":
      state.trials.push({
        trial: event.data.trial,
        startEventId: event.id,
        memory: event.data.memory,
        evicted: event.data.evicted,
        steps: [],
        answer: null,
        evaluation: null,
        outcome: null,
        cancelled: false,
        endReason: null,
        reflection: null,
        callIds: [],
        refinements: [],
      });
      return;
    case "model-call-end": {
      state.calls[event.data.callId] = { ...event.data, eventId: event.id, seq: event.seq };
      state.requestCounts[event.data.requestHash] = (state.requestCounts[event.data.requestHash] ?? 0) + 1;
      currentTrial(state, event.data.trial)?.callIds.push(event.data.callId);
      const totals = state.totals;
      totals.modelCalls += 1;
      if (event.data.source === "live") totals.liveCalls += 1;
      else totals.cachedCalls += 1;
      totals.inputTokens += event.data.usage.inputTokens;
      totals.outputTokens += event.data.usage.outputTokens;
      if (event.data.costUsd === null) totals.unpricedCalls += 1;
      else totals.costUsd += event.data.costUsd;
      addSpend(state.spend, event.data);
      return;
    }
    case "model-call-error":
      state.callErrors.push({ ...event.data, eventId: event.id });
      return;
    case "step-thought": {
      const trialView = currentTrial(state, event.data.trial);
      if (trialView) {
        const view = stepOf(trialView, event.data.step);
        view.thought = { ...event.data, eventId: event.id };
        // An imported log's own events come before any branch-start on the path.
        if (recordedElsewhere(state)) view.recordedByAuthors = true;
      }
      return;
    }
    case "step-action": {
      const pending = state.pendingAction;
      if (pending && pending.trial === event.data.trial && pending.step === event.data.step) state.pendingAction = null;
      const trialView = currentTrial(state, event.data.trial);
      if (trialView) {
        const view = stepOf(trialView, event.data.step);
        view.action = { ...event.data, eventId: event.id };
        if (recordedElsewhere(state)) view.recordedByAuthors = true;
      }
      return;
    }
    case "step-observation": {
      const trialView = currentTrial(state, event.data.trial);
      if (!trialView) return;
      stepOf(trialView, event.data.step).observation = { ...event.data, eventId: event.id };
      if (event.data.answer !== null) trialView.answer = event.data.answer;
      return;
    }
    case "evaluation-end": {
      const trialView = currentTrial(state, event.data.trial);
      if (trialView) trialView.evaluation = { ...event.data, eventId: event.id };
      return;
    }
    case "trial-end": {
      const trialView = currentTrial(state, event.data.trial);
      if (trialView) {
        trialView.outcome = event.data.outcome;
        trialView.endReason = event.data.reason;
      }
      return;
    }
    case "reflection-end": {
      const trialView = currentTrial(state, event.data.trial);
      if (trialView) {
        trialView.reflection = {
          eventId: event.id,
          callId: event.data.callId,
          text: event.data.text,
          originalText: event.data.text,
          edits: 0,
          warning: event.data.warning,
        };
      }
      state.memory = [...state.memory, { id: event.id, text: event.data.text, trial: event.data.trial }];
      return;
    }
    case "refine-feedback": {
      const trialView = currentTrial(state, event.data.trial);
      const { round, text, stop, callId } = event.data;
      trialView?.refinements.push({ round, feedback: { text, stop, callId, eventId: event.id }, answer: null });
      return;
    }
    case "refine-answer": {
      const trialView = currentTrial(state, event.data.trial);
      const round = trialView?.refinements.find((r) => r.round === event.data.round);
      if (!trialView || !round) return;
      round.answer = { text: event.data.text, callId: event.data.callId, eventId: event.id };
      trialView.answer = event.data.text;
      return;
    }
    case "reflection-edit":
      applyReflectionEdit(state, event, author);
      return;
    case "memory-edit":
      state.memory = event.data.newMemory;
      if (author) state.memoryEditedBy = author;
      else delete state.memoryEditedBy;
      return;
    case "memory-summary":
      // The reflections merged into one by the summariser.
      state.memory = event.data.after;
      return;
    case "settings-edit":
      if (event.data.target === "breakpoints") {
        state.breakpoints = event.data.newValue;
        if (state.config) state.config = { ...state.config, breakpoints: event.data.newValue };
      } else if (state.config) {
        const models = { ...state.config.models, [event.data.role]: event.data.newValue };
        state.config = { ...state.config, models };
      }
      return;
    case "prompt-edit":
      if (state.config) {
        const templates = { ...state.config.templates, [event.data.role]: event.data.newTemplate };
        state.config = { ...state.config, templates };
      }
      return;
    case "pause-request":
      if (state.status === "running") state.pauseRequested = true;
      return;
    case "cancel-request":
      if (state.status === "running" || state.status === "paused") state.cancelRequested = true;
      return;
    case "action-edit":
      state.pendingAction = event.data;
      return;
    case "checkpoint":
      return;
    case "budget-edit":
      if (state.config) state.config = { ...state.config, budget: event.data.newValue };
      return;
    case "memory-carried-in":
      // Ahead of anything else in memory: trial 1 starts with them (the memory window applies as usual).
      state.carriedIn = event.data;
      // The event lists them newest first; memory is oldest first (so Ω keeps the newest carried one).
      state.memory = [...event.data.entries.map((entry) => ({ id: entry.itemId, text: entry.text, trial: null })).reverse(), ...state.memory];
      return;
    case "insights-carried-in":
      // Insights hold across tasks, so they go first, ahead of the task's carried reflections (lib/domain/insights.ts).
      state.insightsCarriedIn = event.data;
      state.memory = [...event.data.entries.map((entry) => ({ id: entry.itemId, text: `${INSIGHT_MEMORY_PREFIX}${entry.text}`, trial: null })), ...state.memory];
      return;
    case "run-pause":
      state.status = "paused";
      state.pauseRequested = false;
      state.stepping = false;
      state.pause = event.data;
      return;
    case "run-resume":
      state.pauseRequested = false;
      state.resumedFrom = state.pause?.at ?? null;
      state.status = "running";
      state.pause = null;
      state.stepping = event.data.step;
      state.progressSinceResume = 0;
      state.actionsSinceResume = 0;
      return;
    case "run-cancel":
      return;
    case "run-end":
      state.status = "ended";
      state.outcome = event.data.outcome;
      // A trial the cancel cut short never gets its trial-end: it reads cancelled, not in progress.
      if (event.data.outcome === "cancelled") {
        for (const trialView of state.trials) if (trialView.outcome === null) trialView.cancelled = true;
      }
      state.stop = event.data.stopReason ? { reason: event.data.stopReason, detail: event.data.stopDetail ?? "" } : null;
      state.pause = null;
      state.pauseRequested = false;
      state.cancelRequested = false;
      return;
    case "run-error":
      state.status = "error";
      state.error = event.data;
      state.pauseRequested = false;
      state.cancelRequested = false;
      return;
  }
}

/**
 * Folds a branch path's events (ordered by `seq`) into the run's state.
 * Pure: the same events always give an equal state.
 */
export function foldRun(events: readonly RunEvent[]): RunState {
  const state = emptyRunState();
  for (const event of events) applyEvent(state, event);
  return state;
}

/** The branch is a record made elsewhere: an imported paper log's or trace's own branch (a fork made here is not). */
function recordedElsewhere(state: RunState): boolean {
  const kind = state.config?.provenance?.kind;
  return (kind === "paper-log" || kind === "external-trace") && state.fork === null;
}
