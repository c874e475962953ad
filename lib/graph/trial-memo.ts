import type { RunState, TrialView } from "@/lib/domain/fold-run";

/**
 * What one trial's lane of the run graph is derived from, for the deriver's per-trial memo
 * (lib/graph/derive-run-graph.ts `createRunGraphDeriver`, decision 0042): the trial view itself
 * and its neighbours (the header's missing-memory check reads the previous trial, the reflection's
 * memory edge the next one), the run's config, the trial's call errors and the lane's place.
 *
 * The memo is by identity — the replay folder (lib/domain/replay-fold.ts) hands out the same
 * trial object for a trial its move did not touch — plus a cheap shape of what the fold mutates in
 * place (counts and the last entries), so a trial mutated in place by an incremental fold is not
 * mistaken for an unchanged one. The calls a trial's nodes read (`state.calls`) are not part of
 * it: the fold only adds calls, and a call's `model-call-end` names its trial, so a trial whose
 * view is untouched has gained no call its nodes read.
 */
export interface TrialInputs {
  view: TrialView;
  previous: TrialView | undefined;
  next: TrialView | undefined;
  config: RunState["config"];
  errors: readonly RunState["callErrors"][number][];
  /** The lane's position from the left (0 = first trial). */
  laneIndex: number;
  /** {@link trialShape} of `view` when the inputs were taken. */
  shape: readonly unknown[];
}

/** No call errors (one shared empty list, so trials without errors compare equal cheaply). */
const NO_ERRORS: readonly RunState["callErrors"][number][] = [];

/**
 * The values of a trial view that the fold changes in place (lib/domain/fold-run.ts `applyEvent`):
 * counts of its lists, its last step's parts, its verdict, reflection and outcome. O(1).
 */
export function trialShape(view: TrialView): unknown[] {
  const last = view.steps.at(-1);
  const round = view.refinements.at(-1);
  return [
    view.steps,
    view.steps.length,
    last,
    last?.thought,
    last?.action,
    last?.observation,
    last?.recordedByAuthors,
    view.callIds.length,
    view.refinements.length,
    round?.answer,
    view.answer,
    view.evaluation,
    view.reflection,
    view.reflection?.text,
    view.reflection?.edits,
    view.reflection?.editedBy,
    view.outcome,
    view.cancelled,
    view.endReason,
    view.memory,
  ];
}

/** Call errors by trial number, in log order (errors without a trial are left out: no lane draws them). */
export function errorsByTrial(state: RunState): Map<number, RunState["callErrors"][number][]> {
  const byTrial = new Map<number, RunState["callErrors"][number][]>();
  for (const error of state.callErrors) {
    if (error.trial === null) continue;
    const list = byTrial.get(error.trial);
    if (list) list.push(error);
    else byTrial.set(error.trial, [error]);
  }
  return byTrial;
}

/** The inputs of trial `index` of `trials` (sorted by trial number) in `state`. */
export function trialInputs(state: RunState, trials: readonly TrialView[], index: number, errors: Map<number, RunState["callErrors"][number][]>): TrialInputs {
  const view = trials[index]!;
  return {
    view,
    previous: trials[index - 1],
    next: trials[index + 1],
    config: state.config,
    errors: errors.get(view.trial) ?? NO_ERRORS,
    laneIndex: index,
    shape: trialShape(view),
  };
}

/** Whether a lane derived from `a` can be drawn for `b` unchanged: the same objects, errors and shape. */
export function sameTrialInputs(a: TrialInputs, b: TrialInputs): boolean {
  return (
    a.view === b.view &&
    a.previous === b.previous &&
    a.next === b.next &&
    a.config === b.config &&
    a.laneIndex === b.laneIndex &&
    a.errors.length === b.errors.length &&
    a.errors.every((error, index) => error === b.errors[index]) &&
    a.shape.length === b.shape.length &&
    a.shape.every((value, index) => Object.is(value, b.shape[index]))
  );
}
