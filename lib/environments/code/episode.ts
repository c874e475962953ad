import {
  CODE_ACTIONS,
  readCodeStepState,
  type CodeInternalRunState,
  type CodeTestsWrittenState,
} from "@/lib/domain/code-trial";
import type { ActionParse, Episode, StepResult, TrajectoryStep } from "@/lib/domain/environment";
import { LANGUAGE_NAMES } from "./prompts";
import type { CodeTask } from "./task";
import { filterInternalTests, formatFeedback, runInternalTests, type CodeSandbox } from "./test-runs";

/**
 * One trial of the programming loop (reference §4.1): in trial 1 the Actor first
 * writes internal tests (`WriteTests`), then every trial ends with one
 * `Implement` whose code is run against those tests in the sandbox. The episode
 * holds the internal tests (from trial 1) and the last internal run, which the
 * Evaluator reads.
 */
export class CodeEpisode implements Episode {
  /** The internal test run of this trial's implementation, once it happened. */
  lastRun: CodeInternalRunState | null;

  /**
   * @param internalTests the kept internal tests, or null while trial 1 has not written them yet.
   */
  constructor(
    private readonly task: CodeTask,
    private readonly sandbox: CodeSandbox,
    private internalTests: string[] | null,
    lastRun: CodeInternalRunState | null = null,
  ) {
    this.lastRun = lastRun;
  }

  /**
   * Rebuilds an episode from recorded steps, running nothing: the internal tests
   * come from the `WriteTests` observation of this trial or an earlier one.
   */
  static restore(task: CodeTask, sandbox: CodeSandbox, steps: readonly TrajectoryStep[], earlierTrials: ReadonlyArray<readonly TrajectoryStep[]>): CodeEpisode {
    let tests: string[] | null = null;
    let lastRun: CodeInternalRunState | null = null;
    for (const step of [...earlierTrials.flat(), ...steps]) {
      const state = readCodeStepState(step.state);
      if (state?.kind === "code-tests-written" && tests === null) tests = state.kept;
    }
    for (const step of steps) {
      const state = readCodeStepState(step.state);
      if (state?.kind === "code-internal-run") lastRun = state;
    }
    return new CodeEpisode(task, sandbox, tests, lastRun);
  }

  async step(action: ActionParse): Promise<StepResult> {
    const writesTests = action.ok ? action.action.type === CODE_ACTIONS.writeTests : this.internalTests === null;
    return writesTests ? this.writeTests(action) : this.implement(action);
  }

  private async writeTests(action: ActionParse): Promise<StepResult> {
    const filtered = action.ok ? await filterInternalTests(action.action.argument, this.task.language, this.sandbox) : { kept: [], dropped: [] };
    this.internalTests = filtered.kept;
    const state: CodeTestsWrittenState = { kind: "code-tests-written", language: this.task.language, ...filtered };
    return { observation: describeTests(state, action.ok ? null : action.error), done: false, answer: null, state };
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
    const verdict = tests.every((test) => test.status === "pass") ? "pass" : "fail";
    const state: CodeInternalRunState = { kind: "code-internal-run", language, implementation, verdict, tests };
    this.lastRun = state;
    const observation =
      tests.length === 0
        ? `No internal tests: the empty suite passes vacuously (reference §4.3), so this ${LANGUAGE_NAMES[language]} implementation goes to the Evaluator untested.`
        : formatFeedback(tests, language);
    return { observation, done: true, answer: implementation, state };
  }
}

/** The observation after `WriteTests`: what was kept and what was dropped, and why. */
function describeTests(state: CodeTestsWrittenState, parseError: string | null): string {
  const lines: string[] = [];
  if (parseError !== null) lines.push(parseError);
  if (state.kept.length === 0) {
    lines.push("No assert line parsed, so the internal test suite is empty and any implementation passes it (reference §4.3).");
  } else {
    lines.push(`Kept ${state.kept.length} internal ${state.kept.length === 1 ? "test" : "tests"}:`, ...state.kept);
  }
  if (state.dropped.length > 0) lines.push("Dropped:", ...state.dropped.map((item) => `${item.line}  (${item.reason})`));
  return lines.join("\n");
}
