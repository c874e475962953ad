import { CODE_ACTIONS, readCodeStepState, type CodeTestResult } from "@/lib/domain/code-trial";
import type { RunState, StepView, TrialView } from "@/lib/domain/fold-run";
import { familyDescriptor } from "@/lib/environments/descriptors";
import type {
  CodeActionView,
  CodeLanguage,
  CodeObservationView,
  CodeTrialView,
  CodeVerdictView,
  GraphNodeKind,
  HiddenVerdictView,
} from "./types";

/**
 * The code family's bits of the run graph (paper §4, programming Reflexion):
 * the Actor writes internal tests (`WriteTests`, trial 1 step 1) and an
 * implementation (`Implement`, each trial's last step); the internal tests'
 * verdict drives the loop, and the dataset's hidden tests are run once per
 * trial for reporting only. Everything here is a pure view of the folded run;
 * derive-run-graph.ts attaches these views as the optional `code` field of node
 * data, so QA and household nodes are unchanged.
 */

/** Lines of code an action node shows. */
export const CODE_PREVIEW_LINES = 4;

/**
 * Node heights (px) of code runs where they differ from `NODE_HEIGHTS`: the
 * lane header carries a verdict line, action nodes a few lines of code, the
 * evaluation node two verdicts. Per run, not per node state, so the layout
 * never moves when a verdict arrives.
 */
export const CODE_NODE_HEIGHTS: Readonly<Partial<Record<Exclude<GraphNodeKind, "lane">, number>>> = {
  trial: 84,
  action: 108,
  observation: 92,
  evaluation: 116,
};

const LANGUAGES: readonly CodeLanguage[] = ["python", "javascript", "typescript"];

function isLanguage(value: unknown): value is CodeLanguage {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** What every code view of one run needs to know. */
export interface CodeRun {
  language: CodeLanguage;
}

/** The code run's context, or null when the run's actions are not programs (its descriptor's `step.actionIsCode`: QA, household, open) or it has not started. */
export function codeRunOf(state: RunState): CodeRun | null {
  const config = state.config;
  if (!config || !familyDescriptor(config.environment).step.actionIsCode) return null;
  const language = config.task.language;
  return { language: isLanguage(language) ? language : "python" };
}

/** Comment marker of a language, for `<assert> # output: <value>` lines. */
export function commentMarker(language: CodeLanguage): string {
  return language === "python" ? "#" : "//";
}

/** The code's lines without the blank lines at either end; tabs as four spaces. */
function codeLines(code: string): string[] {
  const lines = code.replace(/\t/g, "    ").split(/\r?\n/);
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]?.trim() === "") start += 1;
  while (end > start && lines[end - 1]?.trim() === "") end -= 1;
  return lines.slice(start, end);
}

const VERBS: Record<CodeActionView["actionType"], string> = { WriteTests: "Write tests", Implement: "Implement" };

/**
 * The view of a `WriteTests` / `Implement` action: the verb and the first
 * lines of the code (the parsed argument, else the recorded text). Null for any
 * other action, and for an action that did not parse.
 */
export function codeActionView(run: CodeRun, action: NonNullable<StepView["action"]>): CodeActionView | null {
  const parsed = action.action;
  const type = parsed?.type;
  if (!parsed || (type !== CODE_ACTIONS.writeTests && type !== CODE_ACTIONS.implement)) return null;
  const code = parsed.argument.trim() !== "" ? parsed.argument : action.text;
  const lines = codeLines(code);
  return { actionType: type, verb: VERBS[type], language: run.language, preview: lines.slice(0, CODE_PREVIEW_LINES), lines: lines.length };
}

/** One test as the feedback shows a failure: `<test> # output: <value>`, or `<test> — <message>` when no value was computed. */
export function failureLine(test: Pick<CodeTestResult, "code" | "actual" | "message" | "status">, language: CodeLanguage): string {
  const code = test.code.trim();
  if (test.actual !== null) return `${code} ${commentMarker(language)} output: ${test.actual}`;
  return test.message ? `${code} — ${test.message}` : `${code} — ${test.status}`;
}

/** The view of a code observation (after `WriteTests` or `Implement`), or null when its state is something else. */
export function codeObservationView(state: unknown): CodeObservationView | null {
  const parsed = readCodeStepState(state);
  if (!parsed) return null;
  if (parsed.kind === "code-tests-written") {
    return {
      kind: "tests-written",
      language: parsed.language,
      kept: parsed.kept.length,
      written: parsed.kept.length + parsed.dropped.length,
      firstDropReason: parsed.dropped[0]?.reason ?? null,
    };
  }
  const firstFailure = parsed.tests.find((test) => test.status !== "pass");
  return {
    kind: "internal-run",
    language: parsed.language,
    verdict: parsed.verdict,
    passed: parsed.tests.filter((test) => test.status === "pass").length,
    total: parsed.tests.length,
    statuses: parsed.tests.map((test) => test.status),
    firstFailure: firstFailure ? failureLine(firstFailure, parsed.language) : null,
  };
}

/** The trial's last internal test run (the state of its last `Implement` observation), or null. */
export function lastInternalRun(trial: TrialView) {
  const steps = [...trial.steps].sort((a, b) => a.step - b.step);
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const parsed = readCodeStepState(steps[index]?.observation?.state);
    if (parsed?.kind === "code-internal-run") return parsed;
  }
  return null;
}

function hiddenOf(evaluation: NonNullable<TrialView["evaluation"]>): HiddenVerdictView | null {
  const hidden = evaluation.hiddenTests;
  return hidden ? { verdict: hidden.verdict, passed: hidden.passed, total: hidden.total } : null;
}

/**
 * Whether the internal verdict passed vacuously: the suite was empty (no test
 * kept). `evaluation-end.details.vacuous`; for a log without it, an internal
 * pass over zero tests.
 */
export function passedVacuously(trial: TrialView, evaluation: NonNullable<TrialView["evaluation"]>): boolean {
  if (evaluation.verdict !== "pass") return false;
  const flag = evaluation.details.vacuous;
  if (typeof flag === "boolean") return flag;
  const internalRun = lastInternalRun(trial);
  return internalRun !== null && internalRun.tests.length === 0;
}

/** Both verdicts of an evaluated code trial. */
export function codeVerdictView(trial: TrialView, evaluation: NonNullable<TrialView["evaluation"]>): CodeVerdictView {
  const internalRun = lastInternalRun(trial);
  // The Evaluator's own counts win: after a Self-Refine round it ran the refined program, not the last step's.
  const passed = evaluation.details.internalPassed;
  const total = evaluation.details.internalTotal;
  const counted = typeof passed === "number" && typeof total === "number";
  return {
    internal: evaluation.verdict,
    internalPassed: counted ? passed : internalRun ? internalRun.tests.filter((test) => test.status === "pass").length : null,
    internalTotal: counted ? total : internalRun ? internalRun.tests.length : null,
    hidden: hiddenOf(evaluation),
    falsePositive: evaluation.falsePositive,
    vacuous: passedVacuously(trial, evaluation),
    untested: evaluation.details.untested === true,
  };
}

/** A code trial's verdicts for its lane header and the run header's trial strip. */
export function codeTrialView(trial: TrialView): CodeTrialView {
  const evaluation = trial.evaluation;
  if (!evaluation) return { internal: null, hidden: null, falsePositive: false, vacuous: false, untested: false };
  return {
    internal: evaluation.verdict,
    hidden: hiddenOf(evaluation),
    falsePositive: evaluation.falsePositive,
    vacuous: passedVacuously(trial, evaluation),
    untested: evaluation.details.untested === true,
  };
}

/**
 * What a false positive means, for tooltips: internal pass, hidden fail. When
 * the internal suite was empty it says so, since then no test of the agent's
 * checked the program at all.
 */
export function falsePositiveExplanation(vacuous: boolean): string {
  return vacuous
    ? "No internal tests were kept, so the empty suite passed vacuously; the hidden tests failed. The loop stopped on a program no test had checked, and the agent never sees the hidden tests."
    : "The agent's own tests passed, but the benchmark's hidden tests failed: the loop stopped on a wrong program. The agent never sees the hidden tests, so it could not know.";
}

/** The likely cause of a false positive, for the inspector (after {@link falsePositiveExplanation}). */
export function falsePositiveCause(vacuous: boolean): string {
  return vacuous
    ? "Open trial 1's Write tests step to see why no line was kept."
    : "Weak internal tests are the usual cause (the paper's MBPP lesson).";
}

const mark = (verdict: "pass" | "fail") => (verdict === "pass" ? "✓" : "✗");

/** `internal ✓ · hidden ✗ 2/5 · false positive`, or `awaiting verdict` before the evaluation. */
export function codeTrialSummary(view: CodeTrialView): string {
  if (view.internal === null) return "awaiting verdict";
  const parts = [`internal ${mark(view.internal)}`, view.hidden ? `hidden ${mark(view.hidden.verdict)} ${view.hidden.passed}/${view.hidden.total}` : "hidden not run"];
  if (view.falsePositive) parts.push("false positive");
  return parts.join(" · ");
}

/** Whether a step's thought node is left out: code steps record an empty thought (the code is the whole completion). */
export function hidesThought(run: CodeRun | null, step: StepView): boolean {
  return run !== null && step.thought !== null && step.thought.text.trim() === "";
}

/** Accessible names of code nodes (screen readers get the same facts as the picture). */
export const codeAriaLabel = {
  action: (trial: number, step: number, view: CodeActionView) =>
    `Trial ${trial}, step ${step}: ${view.verb}, ${view.lines} ${view.lines === 1 ? "line" : "lines"} of ${view.language}`,
  observation: (trial: number, step: number, view: CodeObservationView) =>
    view.kind === "tests-written"
      ? `Trial ${trial}, step ${step}: kept ${view.kept} of ${view.written} tests`
      : `Trial ${trial}, step ${step}: internal tests ${view.passed} of ${view.total} passed`,
  evaluation: (trial: number, view: CodeVerdictView) =>
    `Trial ${trial} evaluation: internal tests ${view.internal}${view.vacuous ? " (empty suite, passed vacuously)" : view.untested ? " (no runnable internal test: untested)" : ""}, hidden tests ${view.hidden ? `${view.hidden.verdict} (${view.hidden.passed} of ${view.hidden.total})` : "not run"}${view.falsePositive ? ", false positive" : ""}`,
};
