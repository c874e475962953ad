import {
  CODE_ACTIONS,
  MAX_INTERNAL_TEST_ASKS,
  readCodeStepState,
  writesInternalTestsNext,
  type CodeInternalRunState,
  type CodeTestsWrittenState,
} from "@/lib/domain/code-trial";
import type { ActionParse, Episode, StepResult, TrajectoryStep } from "@/lib/domain/environment";
import { LANGUAGE_NAMES, UNTESTED_FEEDBACK } from "./prompts";
import type { CodeTask } from "./task";
import { filterInternalTests, formatFeedback, runInternalTests, type CodeSandbox } from "./test-runs";

/**
 * One trial of the programming loop (reference §4.1): in trial 1 the Actor first
 * writes internal tests (`WriteTests`), then every trial ends with one
 * `Implement` whose code is run against those tests in the sandbox. The episode
 * holds the internal tests (from trial 1) and the last internal run, which the
 * Evaluator reads. A `WriteTests` block with no runnable test is asked for
 * again, up to {@link MAX_INTERNAL_TEST_ASKS} times in trial 1.
 */
export class CodeEpisode implements Episode {
  /** The internal test run of this trial's implementation, once it happened. */
  lastRun: CodeInternalRunState | null;

  /**
   * @param internalTests the kept internal tests, or null while trial 1 has not written them yet.
   * @param trial the trial this episode plays (1-based).
   * @param steps the trial's recorded steps so far (they tell whether tests are asked for again).
   */
  constructor(
    private readonly task: CodeTask,
    private readonly sandbox: CodeSandbox,
    private internalTests: string[] | null,
    lastRun: CodeInternalRunState | null = null,
    private readonly trial = 1,
    private readonly steps: TrajectoryStep[] = [],
  ) {
    this.lastRun = lastRun;
  }

  /**
   * Rebuilds an episode from recorded steps, running nothing: the internal tests
   * come from the `WriteTests` observation of this trial or an earlier one.
   */
  static restore(
    task: CodeTask,
    sandbox: CodeSandbox,
    steps: readonly TrajectoryStep[],
    earlierTrials: ReadonlyArray<readonly TrajectoryStep[]>,
    trial = earlierTrials.length + 1,
  ): CodeEpisode {
    let tests: string[] | null = null;
    let lastRun: CodeInternalRunState | null = null;
    for (const step of [...earlierTrials.flat(), ...steps]) {
      const state = readCodeStepState(step.state);
      // The first block that kept a runnable test wins; an empty block asked again is replaced by the next.
      if (state?.kind === "code-tests-written" && (tests === null || tests.length === 0)) tests = state.kept;
    }
    for (const step of steps) {
      const state = readCodeStepState(step.state);
      if (state?.kind === "code-internal-run") lastRun = state;
    }
    return new CodeEpisode(task, sandbox, tests, lastRun, trial, [...steps]);
  }

  async step(action: ActionParse): Promise<StepResult> {
    const writesTests = action.ok ? action.action.type === CODE_ACTIONS.writeTests : writesInternalTestsNext(this.trial, this.steps);
    const result = await (writesTests ? this.writeTests(action) : this.implement(action));
    this.steps.push({ step: this.steps.length + 1, thought: "", actionText: action.text, observation: result.observation, state: result.state ?? null });
    return result;
  }

  private async writeTests(action: ActionParse): Promise<StepResult> {
    const filtered = action.ok ? await filterInternalTests(action.action.argument, this.task.language, this.sandbox) : { kept: [], dropped: [] };
    if (filtered.kept.length > 0 || this.internalTests === null) this.internalTests = filtered.kept;
    const state: CodeTestsWrittenState = { kind: "code-tests-written", language: this.task.language, ...filtered };
    const asks = this.steps.filter((step) => readCodeStepState(step.state)?.kind === "code-tests-written").length + 1;
    return { observation: describeTests(state, action.ok ? null : action.error, asks), done: false, answer: null, state };
  }

  /**
   * The internal tests run on `implementation` without taking a step: how the Evaluator checks an
   * answer that is not the trial's last `Implement` (Self-Refine's refined code). Sets {@link lastRun}.
   */
  async runAnswer(implementation: string): Promise<CodeInternalRunState> {
    const tests = await runInternalTests(this.task, implementation, this.internalTests ?? [], this.sandbox);
    const verdict = tests.length > 0 && tests.every((test) => test.status === "pass") ? "pass" : "fail";
    this.lastRun = { kind: "code-internal-run", language: this.task.language, implementation, verdict, tests };
    return this.lastRun;
  }

  private async implement(action: ActionParse): Promise<StepResult> {
    const language = this.task.language;
    if (!action.ok) {
      const state: CodeInternalRunState = { kind: "code-internal-run", language, implementation: "", verdict: "fail", tests: [] };
      this.lastRun = state;
      return { observation: `${action.error} There is nothing to test.`, done: true, answer: null, state };
    }
    const implementation = action.action.argument;
    const tests = await runInternalTests(this.task, implementation, this.internalTests ?? [], this.sandbox);
    // An empty suite checks nothing: untested is not passed (no vacuous pass).
    const verdict = tests.length > 0 && tests.every((test) => test.status === "pass") ? "pass" : "fail";
    const state: CodeInternalRunState = { kind: "code-internal-run", language, implementation, verdict, tests };
    this.lastRun = state;
    const observation = tests.length === 0 ? `${UNTESTED_FEEDBACK} (${LANGUAGE_NAMES[language]})` : formatFeedback(tests, language);
    return { observation, done: true, answer: implementation, state };
  }
}

/**
 * The observation after `WriteTests`: what was kept and what was dropped, and
 * why; with nothing kept, whether the tests are asked for again (`asks` of
 * {@link MAX_INTERNAL_TEST_ASKS}) or the run goes on without internal tests.
 */
function describeTests(state: CodeTestsWrittenState, parseError: string | null, asks: number): string {
  const lines: string[] = [];
  if (parseError !== null) lines.push(parseError);
  if (state.kept.length === 0) {
    lines.push(
      asks < MAX_INTERNAL_TEST_ASKS
        ? `No runnable internal test in this block (ask ${asks} of ${MAX_INTERNAL_TEST_ASKS}): asking for the tests again.`
        : `No runnable internal test after ${MAX_INTERNAL_TEST_ASKS} asks: the implementations of this run cannot be checked, so none is counted as passing its internal tests.`,
    );
  } else {
    lines.push(`Kept ${state.kept.length} internal ${state.kept.length === 1 ? "test" : "tests"}:`, ...state.kept);
  }
  if (state.dropped.length > 0) lines.push("Dropped:", ...state.dropped.map((item) => `${item.line}  (${item.reason})`));
  return lines.join("\n");
}
