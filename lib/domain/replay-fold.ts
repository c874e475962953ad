import type { RunEvent } from "./events";
import { applyEvent, emptyRunState, foldRun, type RunState } from "./fold-run";
import type { TrialView } from "./run-state";
import type { TreeSearchView } from "./tree-search";

/**
 * The run state at any replay cursor of a long log without folding from zero each move
 * (decision 0042; the cursor itself: lib/graph/replay-cursor.ts, decision 0021).
 *
 * A {@link ReplayFolder} keeps checkpoints: the folded state after every `every` events, built
 * lazily the first time a cursor beyond them is asked for, in one forward pass. The state at a
 * cursor is a copy of the checkpoint at or below it with at most `every - 1` events applied:
 * O(state + every) per move instead of O(cursor). Structural sharing: a checkpoint keeps the previous
 * checkpoint's trial objects for the trials its events did not touch, and a move copies only the
 * trials its tail touches ({@link trialsTouched}); every other trial view is the same object in
 * every state handed out, so views memoised on a trial (the run graph) skip it. Equal (deeply) to `foldRun(events.slice(0, cursor))`
 * at every cursor; tests/domain/replay-fold.test.ts checks it, visiting cursors in a scrambled order.
 */

/** Events between two checkpoints by default: ≤ ~3 ms of folding on a 2-core machine. */
export const REPLAY_CHECKPOINT_EVERY = 1000;

/**
 * A copy of a folded state that {@link applyEvent} can go on mutating without touching the
 * original: every container the fold mutates in place (trials with their steps, call ids,
 * refinements and reflection; the call, request-count, totals, spend, error and change
 * records; the search tree's nodes, order and iterations) is copied; what the fold only ever
 * replaces (event data, prompts, memory arrays, configs) is shared. Cost: proportional to the
 * number of trials, steps, calls and tree nodes, not to the size of the prompts.
 *
 * `copies(view, index)` (optional) picks the trials to copy; the others are shared as the same
 * objects (structural sharing: the caller promises the events it applies next never touch them).
 * Without it every trial is copied.
 */
export function copyRunState(state: RunState, copies?: (view: TrialView, index: number) => boolean): RunState {
  const copy: RunState = {
    ...state,
    trials: state.trials.map((view, index) => (copies === undefined || copies(view, index) ? copyTrial(view) : view)),
    requestCounts: { ...state.requestCounts },
    calls: { ...state.calls },
    callErrors: [...state.callErrors],
    totals: { ...state.totals },
    spend: { ...state.spend },
    tree: state.tree === null ? null : copyTree(state.tree),
  };
  if (state.changes) copy.changes = [...state.changes];
  return copy;
}

/** Events that never change a trial view (lib/domain/fold-run.ts, fold-tree.ts); a type not listed here and naming no trial is taken to touch every trial. */
const TRIAL_FREE_EVENTS: ReadonlySet<RunEvent["type"]> = new Set<RunEvent["type"]>([
  "run-start",
  "branch-start",
  "memory-edit",
  "memory-summary",
  "settings-edit",
  "prompt-edit",
  "pause-request",
  "cancel-request",
  "action-edit",
  "checkpoint",
  "budget-edit",
  "memory-carried-in",
  "insights-carried-in",
  "run-pause",
  "run-resume",
  "run-cancel",
  "run-error",
  "tree-select",
  "tree-node",
  "tree-value",
  "tree-backprop",
  "tree-focus",
]);

/**
 * Which trial views a run of events may change when folded onto a state, judged against that
 * state's views: the trial numbers the events name (`data.trial`), a rewritten reflection's trial,
 * the unfinished trials a cancelling `run-end` marks, or every trial for an event it does not
 * know. Errs on the side of copying: a view it leaves out must stay deeply equal.
 */
export function trialsTouched(events: readonly RunEvent[], from: number, to: number): (view: TrialView) => boolean {
  const numbers = new Set<number>();
  const reflections = new Set<string>();
  let unfinished = false;
  for (let position = from; position < to; position += 1) {
    const event = events[position]!;
    const trial = (event.data as { trial?: unknown }).trial;
    if (typeof trial === "number") numbers.add(trial);
    else if (event.type === "reflection-edit") reflections.add(event.data.reflectionEventId);
    else if (event.type === "run-end") unfinished ||= event.data.outcome === "cancelled";
    else if (!TRIAL_FREE_EVENTS.has(event.type)) return () => true;
  }
  return (view) => numbers.has(view.trial) || (view.reflection !== null && reflections.has(view.reflection.eventId)) || (unfinished && view.outcome === null);
}

function copyTrial(trial: TrialView): TrialView {
  return {
    ...trial,
    steps: trial.steps.map((step) => ({ ...step })),
    callIds: [...trial.callIds],
    refinements: trial.refinements.map((round) => ({ ...round })),
    reflection: trial.reflection === null ? null : { ...trial.reflection },
  };
}

function copyTree(tree: TreeSearchView): TreeSearchView {
  const nodes = new Map<string, TreeSearchView["nodes"] extends Map<string, infer N> ? N : never>();
  for (const [id, node] of tree.nodes) nodes.set(id, { ...node, children: [...node.children] });
  return {
    ...tree,
    nodes,
    order: [...tree.order],
    iterations: tree.iterations.map((iteration) => ({ ...iteration, selected: [...iteration.selected], path: [...iteration.path] })),
  };
}

/** The state at any cursor of one log; see {@link createReplayFolder}. */
export interface ReplayFolder {
  /**
   * The state after the first `cursor` events (clamped to 0…events.length). A new object each
   * call that the caller may keep; never mutate it (the views memoise on it).
   */
  stateAt(cursor: number): RunState;
  /** Checkpoints built so far (for tests and the bench). */
  readonly checkpoints: number;
}

type CallEntry = RunState["calls"][string];

/** A checkpoint: the state without its call records (`calls` and `requestCounts` are empty), and how many calls it had. */
interface Checkpoint {
  state: RunState;
  calls: number;
}

/**
 * `requestCounts` of a state whose `calls` are complete, built on first read: the fold counts each
 * recorded call's request hash (lib/domain/fold-run.ts `model-call-end`), and only the engine reads
 * it, never a replay view — so a cursor move does not pay for it.
 */
function defineLazyRequestCounts(state: RunState): void {
  Object.defineProperty(state, "requestCounts", {
    enumerable: true,
    configurable: true,
    get(this: RunState) {
      const counts: Record<string, number> = {};
      for (const call of Object.values(this.calls)) counts[call.requestHash] = (counts[call.requestHash] ?? 0) + 1;
      Object.defineProperty(this, "requestCounts", { value: counts, enumerable: true, configurable: true, writable: true });
      return counts;
    },
    set(this: RunState, value: Record<string, number>) {
      Object.defineProperty(this, "requestCounts", { value, enumerable: true, configurable: true, writable: true });
    },
  });
}

/**
 * A {@link ReplayFolder} over `events` (a branch path's log in seq order; the array must not
 * change — make a new folder for a grown log). Nothing is folded until the first
 * {@link ReplayFolder.stateAt}; checkpoints are made every `every` events (default
 * {@link REPLAY_CHECKPOINT_EVERY}) as far as the cursors asked for.
 *
 * The fold only ever adds model calls (never changes one), so checkpoints do not copy the call
 * records: one list of them in log order serves every checkpoint, and a state gets the first
 * `n` of them (a loop over an array: ~4× faster than copying a 25,000-key object).
 */
export function createReplayFolder(events: readonly RunEvent[], options: { every?: number } = {}): ReplayFolder {
  const every = Math.max(1, Math.floor(options.every ?? REPLAY_CHECKPOINT_EVERY));
  // checkpoints[k]: the state after k × every events. Never handed out (only copies are).
  const checkpoints: Checkpoint[] = [{ state: emptyRunState(), calls: 0 }];
  // Every call the forward pass recorded, in the order the fold added them (an id recorded twice appears twice; the later wins, as in the fold).
  const callIds: string[] = [];
  const callEntries: CallEntry[] = [];
  // The state the forward pass has reached (at `reached` events); copied into each new checkpoint.
  const working = emptyRunState();
  let reached = 0;

  const ensureCheckpoint = (index: number) => {
    while (checkpoints.length <= index) {
      const target = checkpoints.length * every;
      for (; reached < target; reached += 1) {
        const event = events[reached]!;
        applyEvent(working, event);
        if (event.type === "model-call-end") {
          callIds.push(event.data.callId);
          callEntries.push(working.calls[event.data.callId]!);
        }
      }
      // Trials the segment did not touch are the previous checkpoint's objects: shared by every later checkpoint and state.
      const previous = checkpoints.at(-1)!.state.trials;
      const touched = trialsTouched(events, target - every, target);
      const state = copyRunState({ ...working, calls: {}, requestCounts: {} }, (view, index) => index >= previous.length || touched(view));
      state.trials = state.trials.map((view, index) => (index < previous.length && !touched(view) ? previous[index]! : view));
      checkpoints.push({ state, calls: callIds.length });
    }
  };

  return {
    stateAt(cursor: number): RunState {
      const at = Math.min(events.length, Math.max(0, Math.floor(Number.isFinite(cursor) ? cursor : events.length)));
      if (events.length <= every) return foldRun(events.slice(0, at));
      const index = Math.floor(at / every);
      ensureCheckpoint(index);
      const checkpoint = checkpoints[index]!;
      // Only the trials the tail touches are copied: the others stay the checkpoint's objects (the graph memoises on them).
      const state = copyRunState(checkpoint.state, trialsTouched(events, index * every, at));
      const calls: RunState["calls"] = {};
      for (let call = 0; call < checkpoint.calls; call += 1) calls[callIds[call]!] = callEntries[call]!;
      state.calls = calls;
      // The events after the checkpoint count into a throwaway record; the real one is built from the calls when read.
      state.requestCounts = {};
      for (let position = index * every; position < at; position += 1) applyEvent(state, events[position]!);
      defineLazyRequestCounts(state);
      return state;
    },
    get checkpoints() {
      return checkpoints.length - 1;
    },
  };
}
