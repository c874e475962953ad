import type { ArmResult, ExperimentSummary } from "../experiment";
import type { PairedComparison } from "../experiment-tests";
import { wilsonInterval } from "../stats/wilson";
import { taskSetLabel, type CheckAssertion, type CheckConfig, type CheckOp } from "./config";

/**
 * Evaluates `cli check` assertions on experiment summaries (pure). Every figure comes from the
 * experiment summary (lib/domain/experiment-summary.ts: success by trial with its 95 % interval,
 * cost per solved run, false positives) and its paired tests (lib/domain/experiment-tests.ts: exact
 * McNemar on final success, lib/domain/paired-test.ts), so a check reports what the experiment view shows.
 */

/** The outcome of one assertion on one task set. */
export interface AssertionResult {
  /** e.g. `qa: candidate final-success >= 0.8`. */
  name: string;
  taskSet: string;
  metric: CheckAssertion["metric"];
  /** The measured value (a share in [0, 1], USD, or for `paired` the success-rate difference candidate − baseline); null when it could not be measured. */
  value: number | null;
  /** Its 95 % interval, where one applies. */
  interval: [number, number] | null;
  /** e.g. `>= 0.8`, or for `paired` `not significantly worse than baseline (α 0.05)`. */
  threshold: string;
  passed: boolean;
  /** One sentence: what was measured against what; for a failure, why. */
  message: string;
}

/** One arm's results on one task set, for the summary table. */
export interface ArmRow {
  taskSet: string;
  label: string;
  strategy: string;
  modelId: string;
  /** Runs = tasks × repeats. */
  runs: number;
  /** Share solved by the last trial and its 95 % interval (Wilson, or bootstrap with repeats). */
  finalSuccess: number;
  interval: [number, number] | null;
  intervalMethod: "wilson" | "bootstrap" | null;
  costUsd: number | null;
  calls: { live: number; cached: number };
}

/** A task set's label and the summary of the experiment it ran as. */
export interface CheckedTaskSet {
  label: string;
  summary: ExperimentSummary;
  /** The family's Evaluator reports hidden tests (so a false-positive rate means something); from the family registry. */
  hiddenTests: boolean;
}

/** Every assertion on every task set it applies to (all of them when it names none), and the arms' rows. */
export function evaluateCheck(config: CheckConfig, sets: readonly CheckedTaskSet[]): { assertions: AssertionResult[]; arms: ArmRow[] } {
  const assertions: AssertionResult[] = [];
  for (const assertion of config.assertions) {
    for (const set of sets) {
      if (assertion.taskSet !== undefined && assertion.taskSet !== set.label) continue;
      // A false-positive rate means nothing without hidden tests (the runner refuses one naming such a set).
      if (assertion.metric === "false-positive-rate" && !set.hiddenTests) continue;
      assertions.push(evaluateAssertion(assertion, set));
    }
  }
  const arms = sets.flatMap((set) => set.summary.arms.map((arm) => armRow(set.label, arm)));
  return { assertions, arms };
}

/** Runs of an arm: tasks × repeats. */
function runsOf(arm: ArmResult): number {
  return arm.tasks * (arm.repeats ?? 1);
}

/** The arm's share solved by trial `trial` (1-based; past its budget, its last trial) with the summary's 95 % interval, as shares. */
export function successShare(arm: ArmResult, trial: number): { value: number; interval: [number, number] | null } {
  const index = Math.min(trial, arm.successByTrial.length) - 1;
  const solved = arm.successByTrial[index] ?? 0;
  const ci = arm.successByTrialCI?.[index];
  if (arm.tasks === 0) return { value: 0, interval: null };
  return { value: solved / arm.tasks, interval: ci ? [ci[0] / arm.tasks, ci[1] / arm.tasks] : null };
}

function armRow(taskSet: string, arm: ArmResult): ArmRow {
  const final = successShare(arm, arm.trials);
  return {
    taskSet,
    label: arm.label,
    strategy: arm.strategy,
    modelId: arm.modelId,
    runs: runsOf(arm),
    finalSuccess: final.value,
    interval: final.interval,
    intervalMethod: arm.intervalMethod ?? null,
    costUsd: arm.costUsd,
    calls: arm.calls,
  };
}

/** Whether `value op threshold`. */
export function compare(value: number, op: CheckOp, threshold: number): boolean {
  switch (op) {
    case ">=":
      return value >= threshold;
    case ">":
      return value > threshold;
    case "<=":
      return value <= threshold;
    case "<":
      return value < threshold;
  }
}

/** A share as a percentage with one decimal (`0.8333` → `83.3 %`). */
export function percent(share: number): string {
  return `${(100 * share).toFixed(1)} %`;
}

function evaluateAssertion(assertion: CheckAssertion, set: CheckedTaskSet): AssertionResult {
  const armOf = (label: string) => set.summary.arms.find((arm) => arm.label === label);
  if (assertion.metric === "paired") return evaluatePaired(assertion, set);
  const arm = armOf(assertion.arm);
  const name = `${set.label}: ${assertion.arm} ${assertion.metric}${assertion.metric === "success-at-trial" ? ` ${assertion.trial}` : ""} ${assertion.op} ${assertion.value}`;
  const base = { name, taskSet: set.label, metric: assertion.metric, threshold: `${assertion.op} ${assertion.value}` };
  if (!arm) return { ...base, value: null, interval: null, passed: false, message: `The experiment has no arm "${assertion.arm}".` };
  switch (assertion.metric) {
    case "final-success":
    case "success-at-trial": {
      const trial = assertion.metric === "final-success" ? arm.trials : assertion.trial;
      const { value, interval } = successShare(arm, trial);
      const passed = compare(value, assertion.op, assertion.value);
      const measured = `${percent(value)} of ${runsOf(arm)} runs solved by trial ${Math.min(trial, arm.trials)}${interval ? ` (95 % interval ${percent(interval[0])}–${percent(interval[1])})` : ""}`;
      return { ...base, value, interval, passed, message: passed ? `${measured}.` : `${measured}; required ${assertion.op} ${percent(assertion.value)}.` };
    }
    case "false-positive-rate": {
      const runs = runsOf(arm);
      const value = runs === 0 ? 0 : arm.falsePositives / runs;
      const interval = runs === 0 ? null : wilsonInterval(arm.falsePositives, runs);
      const passed = compare(value, assertion.op, assertion.value);
      const measured = `${arm.falsePositives} of ${runs} runs passed the internal tests and failed the hidden ones (${percent(value)})`;
      return { ...base, value, interval, passed, message: passed ? `${measured}.` : `${measured}; required ${assertion.op} ${percent(assertion.value)}.` };
    }
    case "cost-per-solved": {
      const value = arm.costPerSolvedUsd ?? null;
      if (value === null) {
        const why = arm.costUsd === null ? "some calls have no known price (set one with `cli prices set`)" : "no run was solved";
        return { ...base, value: null, interval: null, passed: false, message: `Cost per solved run cannot be measured: ${why}.` };
      }
      const passed = compare(value, assertion.op, assertion.value);
      const measured = `$${value.toFixed(4)} per solved run`;
      return { ...base, value, interval: null, passed, message: passed ? `${measured}.` : `${measured}; required ${assertion.op} $${assertion.value}.` };
    }
  }
}

/** The summary's final-success test of `candidate` against `baseline`, oriented candidate − baseline. */
export function pairedOf(tests: readonly PairedComparison[], candidate: string, baseline: string): PairedComparison | null {
  const found = tests.find((test) => test.metric === "final-success" && ((test.a === candidate && test.b === baseline) || (test.a === baseline && test.b === candidate)));
  if (!found) return null;
  if (found.a === candidate) return found;
  return { ...found, a: candidate, b: baseline, effect: -found.effect, ci: [-found.ci[1], -found.ci[0]], aOnly: found.bOnly, bOnly: found.aOnly };
}

function evaluatePaired(assertion: Extract<CheckAssertion, { metric: "paired" }>, set: CheckedTaskSet): AssertionResult {
  const { candidate, baseline, op, alpha } = assertion;
  const name = `${set.label}: ${candidate} ${op} ${baseline} (paired)`;
  const threshold = op === ">=" ? `not significantly worse than ${baseline} (α ${alpha})` : `significantly better than ${baseline} (α ${alpha})`;
  const base = { name, taskSet: set.label, metric: assertion.metric, threshold };
  const test = pairedOf(set.summary.tests ?? [], candidate, baseline);
  if (!test || test.n === 0) return { ...base, value: null, interval: null, passed: false, message: `No paired runs of ${candidate} and ${baseline} ended, so they cannot be compared.` };
  const significant = test.p < alpha;
  const passed = op === ">=" ? !(significant && test.effect < 0) : significant && test.effect > 0;
  const p = test.p < 0.001 ? "p < 0.001" : `p = ${test.p.toFixed(3)}`;
  const measured = `${candidate} − ${baseline}: ${test.effect >= 0 ? "+" : ""}${(100 * test.effect).toFixed(1)} points of final success over ${test.n} paired runs (solved by ${candidate} only: ${test.aOnly ?? 0}, by ${baseline} only: ${test.bOnly ?? 0}; exact McNemar ${p})`;
  const verdict = passed ? "" : op === ">=" ? `; ${candidate} is significantly worse than ${baseline}` : `; ${candidate} is not significantly better than ${baseline}`;
  return { ...base, value: test.effect, interval: test.ci, passed, message: `${measured}${verdict}.` };
}

/** The default label of each configured task set, in order (as {@link CheckedTaskSet.label}). */
export function taskSetLabels(config: CheckConfig): string[] {
  return config.taskSets.map(taskSetLabel);
}
