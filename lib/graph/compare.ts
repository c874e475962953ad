import { diffWords, type Change } from "diff";
import type { MemoryItem } from "@/lib/domain/events";
import type { StepView, TrialView } from "@/lib/domain/fold-run";

/**
 * Pure rules of the compare view: trial lanes of two or
 * more runs aligned by trial number, the first step where their trajectories
 * diverge, a step-aligned diff between consecutive trials of one run (with
 * loops flagged), and the episodic-memory diff across trials. Text diffs use
 * jsdiff (`diff`); nothing here knows React.
 */

/** The shape of a trial the rules read: its number and its steps (a {@link TrialView} fits). */
export type TrialLike = Pick<TrialView, "trial" | "steps">;

/** The action text of a step, or null when the step has no action (yet). */
export function actionText(step: Pick<StepView, "action"> | undefined): string | null {
  return step?.action?.text ?? null;
}

/**
 * Where two or more trajectories first part ways:
 * - `action-differs`: at (`trial`, `step`) every run took an action and the texts are not all equal;
 * - `trajectory-ends`: at (`trial`, `step`) some runs took an action and the others' trajectories
 *   have no such step (their trial ended sooner, or they never reached this trial — e.g. a run that
 *   stopped at its first success). `ended` lists the indices of those runs.
 */
export interface Divergence {
  trial: number;
  step: number;
  kind: "action-differs" | "trajectory-ends";
  /** Indices (into the input) of the runs without an action at (`trial`, `step`); empty for `action-differs`. */
  ended: number[];
}

function stepsByTrial(trials: readonly TrialLike[]): Map<number, readonly StepView[]> {
  const map = new Map<number, readonly StepView[]>();
  for (const trial of trials) {
    // Steps in step order, and only those with an action: a step still waiting for its action is not part of the trajectory yet.
    map.set(
      trial.trial,
      [...trial.steps].filter((step) => step.action !== null).sort((a, b) => a.step - b.step),
    );
  }
  return map;
}

/**
 * The first (trial, step), in trial-then-step order, whose action text differs
 * between the runs, or where one trajectory ends while another goes on (see
 * {@link Divergence}); null when every run took the same actions throughout
 * (or fewer than two runs are given). Steps are aligned by position within
 * their trial: the k-th action of trial t of each run.
 */
export function firstDivergence(runs: ReadonlyArray<readonly TrialLike[]>): Divergence | null {
  if (runs.length < 2) return null;
  const indexed = runs.map(stepsByTrial);
  const lastTrial = Math.max(0, ...runs.flatMap((trials) => trials.map((trial) => trial.trial)));
  for (let trial = 1; trial <= lastTrial; trial += 1) {
    const steps = indexed.map((byTrial) => byTrial.get(trial) ?? []);
    const length = Math.max(...steps.map((list) => list.length));
    for (let position = 0; position < length; position += 1) {
      const texts = steps.map((list) => actionText(list[position]));
      const ended = texts.flatMap((text, index) => (text === null ? [index] : []));
      const stepNumber = steps.map((list) => list[position]?.step).find((step) => step !== undefined) ?? position + 1;
      if (ended.length > 0) return { trial, step: stepNumber, kind: "trajectory-ends", ended };
      if (new Set(texts).size > 1) return { trial, step: stepNumber, kind: "action-differs", ended: [] };
    }
  }
  return null;
}

/** One row of aligned trial lanes: trial `trial` of every run (null where a run has no such trial). */
export interface AlignedTrialRow<T extends { trial: number }> {
  trial: number;
  lanes: Array<T | null>;
}

/** Trial k of each run in one row, k = 1 … the longest run's last trial. */
export function alignTrials<T extends { trial: number }>(runs: ReadonlyArray<readonly T[]>): AlignedTrialRow<T>[] {
  const lastTrial = Math.max(0, ...runs.flatMap((trials) => trials.map((trial) => trial.trial)));
  return Array.from({ length: lastTrial }, (_, index) => {
    const trial = index + 1;
    return { trial, lanes: runs.map((trials) => trials.find((candidate) => candidate.trial === trial) ?? null) };
  });
}

/**
 * The steps of a trial that repeat an earlier step of the same trial: the same
 * action text answered by the same observation — the agent is going round in
 * a loop (ALFWorld's early stop fires at three in a row). Steps without an
 * observation yet are never flagged.
 */
export function loopSteps(trial: Pick<TrialView, "steps">): Set<number> {
  const seen = new Set<string>();
  const loops = new Set<number>();
  for (const step of [...trial.steps].sort((a, b) => a.step - b.step)) {
    const action = actionText(step);
    const observation = step.observation?.text;
    if (action === null || observation === undefined) continue;
    const key = `${action.trim()}\u0000${observation.trim()}`;
    if (seen.has(key)) loops.add(step.step);
    else seen.add(key);
  }
  return loops;
}

/** A step of a trial as the trial diff shows it. */
export interface DiffStep {
  step: number;
  thought: string | null;
  action: string | null;
  observation: string | null;
  /** This step repeats an earlier (action, observation) pair of its trial ({@link loopSteps}). */
  loop: boolean;
}

/**
 * One aligned row of a trial diff: step k of the earlier and of the later trial.
 * - `same`: both took the same action;
 * - `changed`: both took an action and the texts differ (`actionDiff` holds the word diff);
 * - `added`: only the later trial has this step; `removed`: only the earlier one.
 */
export interface TrialDiffRow {
  step: number;
  before: DiffStep | null;
  after: DiffStep | null;
  change: "same" | "changed" | "added" | "removed";
  /** Word diff of the action texts, earlier → later (jsdiff `diffWords`); null unless `changed`. */
  actionDiff: Change[] | null;
}

/** A step-aligned diff between two trials of one run (normally t and t + 1). */
export interface TrialDiff {
  before: number;
  after: number;
  rows: TrialDiffRow[];
  /** The first step whose action differs or that exists in only one of the trials; null when the trajectories match. */
  firstChangedStep: number | null;
  /** Steps flagged as loops in each trial. */
  loopsBefore: number;
  loopsAfter: number;
}

function diffSteps(trial: Pick<TrialView, "steps">): DiffStep[] {
  const loops = loopSteps(trial);
  return [...trial.steps]
    .filter((step) => step.action !== null)
    .sort((a, b) => a.step - b.step)
    .map((step) => ({
      step: step.step,
      thought: step.thought?.text ?? null,
      action: actionText(step),
      observation: step.observation?.text ?? null,
      loop: loops.has(step.step),
    }));
}

/**
 * Aligns the steps of two trials by position (the k-th action of each) and
 * marks what changed from `before` to `after` (see {@link TrialDiffRow}).
 */
export function diffTrials(before: Pick<TrialView, "trial" | "steps">, after: Pick<TrialView, "trial" | "steps">): TrialDiff {
  const a = diffSteps(before);
  const b = diffSteps(after);
  const rows: TrialDiffRow[] = [];
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const left = a[index] ?? null;
    const right = b[index] ?? null;
    const step = right?.step ?? left?.step ?? index + 1;
    if (left && right) {
      const same = left.action === right.action;
      rows.push({
        step,
        before: left,
        after: right,
        change: same ? "same" : "changed",
        actionDiff: same ? null : diffWords(left.action ?? "", right.action ?? ""),
      });
    } else {
      rows.push({ step, before: left, after: right, change: right ? "added" : "removed", actionDiff: null });
    }
  }
  return {
    before: before.trial,
    after: after.trial,
    rows,
    firstChangedStep: rows.find((row) => row.change !== "same")?.step ?? null,
    loopsBefore: a.filter((step) => step.loop).length,
    loopsAfter: b.filter((step) => step.loop).length,
  };
}

/** Diffs of every consecutive pair of trials of a run: (1 → 2), (2 → 3), … */
export function consecutiveTrialDiffs(trials: ReadonlyArray<Pick<TrialView, "trial" | "steps">>): TrialDiff[] {
  const ordered = [...trials].sort((a, b) => a.trial - b.trial);
  return ordered.slice(1).map((after, index) => diffTrials(ordered[index]!, after));
}

/** A memory item whose text changed between two trials (a `reflection-edit` or `memory-edit` in between). */
export interface EditedMemoryItem {
  id: string;
  trial: number | null;
  oldText: string;
  newText: string;
  /** Word diff old → new (jsdiff `diffWords`). */
  changes: Change[];
}

/**
 * How the episodic memory in the Actor's context changed from one trial's
 * start to the next's:
 * - `entered`: in the later trial's context, not in the earlier's (normally the reflection just written);
 * - `evicted`: in the earlier context, now left out by the memory window Ω;
 * - `removed`: in the earlier context, now neither in context nor evicted (deleted by a memory edit);
 * - `edited`: in both, with a different text (a person edited it);
 * - `kept`: in both, unchanged.
 */
export interface MemoryDiff {
  /** The earlier trial (null: `after` is the first trial shown, compared with an empty memory). */
  before: number | null;
  after: number;
  entered: MemoryItem[];
  evicted: MemoryItem[];
  removed: MemoryItem[];
  edited: EditedMemoryItem[];
  kept: MemoryItem[];
}

/** The memory diff between the starts of trial `before` and trial `after` (see {@link MemoryDiff}). */
export function diffMemory(before: Pick<TrialView, "trial" | "memory"> | null, after: Pick<TrialView, "trial" | "memory" | "evicted">): MemoryDiff {
  const previous = new Map((before?.memory ?? []).map((item) => [item.id, item]));
  const current = new Map(after.memory.map((item) => [item.id, item]));
  const evictedNow = new Set(after.evicted.map((item) => item.id));
  const diff: MemoryDiff = { before: before?.trial ?? null, after: after.trial, entered: [], evicted: [], removed: [], edited: [], kept: [] };
  for (const item of after.memory) {
    const old = previous.get(item.id);
    if (!old) diff.entered.push(item);
    else if (old.text === item.text) diff.kept.push(item);
    else diff.edited.push({ id: item.id, trial: item.trial, oldText: old.text, newText: item.text, changes: diffWords(old.text, item.text) });
  }
  for (const item of before?.memory ?? []) {
    if (current.has(item.id)) continue;
    if (evictedNow.has(item.id)) diff.evicted.push(item);
    else diff.removed.push(item);
  }
  return diff;
}

/** The memory diff at the start of every trial of a run: trial 1 against an empty memory, then each against the one before. */
export function memoryHistory(trials: ReadonlyArray<Pick<TrialView, "trial" | "memory" | "evicted">>): MemoryDiff[] {
  const ordered = [...trials].sort((a, b) => a.trial - b.trial);
  return ordered.map((trial, index) => diffMemory(index === 0 ? null : ordered[index - 1]!, trial));
}

/** True when the diff has nothing to show (no item entered, left or changed). */
export function memoryUnchanged(diff: MemoryDiff): boolean {
  return diff.entered.length === 0 && diff.evicted.length === 0 && diff.removed.length === 0 && diff.edited.length === 0;
}

/** A reflection a person edited: the text the Self-Reflection model wrote, the text now, and their word diff. */
export function reflectionEditDiff(reflection: { text: string; originalText: string; edits: number } | null): Change[] | null {
  if (!reflection || reflection.edits === 0 || reflection.text === reflection.originalText) return null;
  return diffWords(reflection.originalText, reflection.text);
}
