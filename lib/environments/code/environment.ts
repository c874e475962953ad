import { CODE_ACTIONS, MAX_INTERNAL_TEST_ASKS, readCodeStepState, writesInternalTestsNext } from "@/lib/domain/code-trial";
import type { ActionContext, ActionParse, Episode, EnvironmentFamily, TrajectoryStep, Verdict } from "@/lib/domain/environment";
import { AppError } from "@/lib/domain/errors";
import { CodeEpisode } from "./episode";
import { extractCode } from "./extract-code";
import {
  CODE_ACTOR_TEMPLATE,
  CODE_REFLECTOR_TEMPLATE,
  codePromptVariables,
  fenced,
  renderCodeMemory,
  renderPreviousAttempt,
  renderRequest,
  renderTestsAskedAgain,
  UNTESTED_FEEDBACK,
} from "./prompts";
import { codeFeedbackTemplate, codeRefineTemplate } from "./refine-prompts";
import { codeTaskSchema, type CodeTask } from "./task";
import { formatFeedback, runHiddenTests, type CodeSandbox } from "./test-runs";
import { describeIssues } from "@/lib/domain/describe-issues";

/**
 * The code task family: the Reflexion paper's programming loop (§4; reference
 * shared/docs/reflexion-reference.md §4, decision 0010).
 *
 * - Trial 1, step 1 (`WriteTests`): the Actor writes unit tests from the
 *   signature and docstring; lines with `assert` that parse are kept, at most 5.
 *   A block with no runnable test is asked for again (at most
 *   `MAX_INTERNAL_TEST_ASKS` in all); an implementation no internal test checked
 *   is judged `fail` (untested), never a vacuous pass.
 * - Each trial's last step (`Implement`): the Actor writes the implementation;
 *   the internal tests run in the sandbox; the feedback is the observation.
 * - Evaluator: the internal tests' verdict (all pass → the loop stops). The
 *   dataset's hidden tests run once per trial for reporting only; both verdicts
 *   are recorded, and internal pass + hidden fail is flagged as a false positive.
 * - Self-Reflection sees the implementation and the internal test results.
 * - Under `reflexion` the next Actor prompt carries the previous implementation,
 *   its test results and the reflection (Ω = 1 by default, as the paper); under
 *   `none` (the paper's "simple") every trial starts from the signature alone.
 */

/** Dependencies of the code family. */
export interface CodeEnvironmentDeps {
  /** Where code runs: the sandbox pool (lib/sandbox), never this process. */
  sandbox: CodeSandbox;
}

/** Whether this step writes internal tests: trial 1 until a runnable test is kept (asked again, bounded), see {@link writesInternalTestsNext}. */
function isTestsStep(context: ActionContext | undefined): boolean {
  if (context === undefined) return false;
  if (context.steps === undefined) return context.trial === 1 && context.step === 1;
  return writesInternalTestsNext(context.trial, context.steps);
}

/** The last `Implement` observation state of a recorded trial, if any. */
function lastImplementation(steps: readonly TrajectoryStep[]): { implementation: string; feedback: string } | null {
  for (let i = steps.length - 1; i >= 0; i -= 1) {
    const step = steps[i]!;
    const state = readCodeStepState(step.state);
    if (state?.kind === "code-internal-run" && state.implementation !== "") return { implementation: state.implementation, feedback: step.observation };
  }
  return null;
}

/** Builds the code family over a sandbox. */
export function createCodeEnvironment(deps: CodeEnvironmentDeps): EnvironmentFamily<CodeTask> {
  const { sandbox } = deps;
  return {
    id: "code",
    parseTask(json) {
      const parsed = codeTaskSchema.safeParse(json);
      if (!parsed.success) throw new AppError("invalid-dataset", `Invalid code task: ${describeIssues(parsed.error, "(root)")}`);
      return parsed.data;
    },
    summarize(task) {
      // The entry point's own signature line (HumanEval prompts may define helpers first).
      const entry = new RegExp(`\\b(def|function)\\s+${task.entryPoint}\\b|\\b(const|let|var)\\s+${task.entryPoint}\\s*=`);
      const firstLine = task.prompt.split("\n").find((line) => entry.test(line))?.trim() ?? task.entryPoint;
      return { id: task.id, title: `${task.entryPoint} (${task.language}): ${firstLine}`, reference: null, setting: task.prompt };
    },
    splitCompletion(completion) {
      const { code, prose } = extractCode(completion);
      return { thought: prose, actionText: code };
    },
    parseAction(rawText, context): ActionParse {
      const type = isTestsStep(context) ? CODE_ACTIONS.writeTests : CODE_ACTIONS.implement;
      // A person's action (`action-edit`) may arrive fenced, as pasted from a chat; the model's is already extracted.
      const actionText = rawText.includes("```") ? extractCode(rawText).code : rawText;
      if (actionText.trim() === "") {
        const what = type === CODE_ACTIONS.writeTests ? "test code" : "code";
        return { ok: false, error: `The completion contains no ${what} (expected one fenced code block).`, text: rawText };
      }
      return { ok: true, action: { type, argument: actionText }, text: rawText };
    },
    startEpisode(task, options) {
      return CodeEpisode.restore(task, sandbox, [], options?.earlierTrials ?? [], options?.trial);
    },
    restoreEpisode(task, steps, options) {
      return CodeEpisode.restore(task, sandbox, steps, options.earlierTrials ?? [], options.trial);
    },
    async evaluate(task, answer, episode: Episode): Promise<Verdict> {
      let run = episode instanceof CodeEpisode ? episode.lastRun : null;
      // The answer judged may not be the last Implement's (Self-Refine rewrites it): its own internal run decides.
      if (episode instanceof CodeEpisode && run !== null && answer !== null && answer !== run.implementation) run = await episode.runAnswer(answer);
      const hiddenTests = await runHiddenTests(task, answer, sandbox);
      const tests = run?.tests ?? [];
      const passed = tests.filter((test) => test.status === "pass").length;
      // An implementation no internal test checked is never counted as passing (no vacuous pass).
      const verdict = run?.verdict === "pass" && answer !== null && tests.length > 0 ? "pass" : "fail";
      const untested = run !== null && answer !== null && tests.length === 0;
      const feedback =
        run === null || answer === null
          ? "No implementation was written in this trial."
          : untested
            ? UNTESTED_FEEDBACK
            : formatFeedback(tests, task.language);
      return {
        verdict,
        score: tests.length === 0 ? 0 : passed / tests.length,
        feedback,
        evaluatorKind: "unit-tests",
        oracle: false,
        details: { internalPassed: passed, internalTotal: tests.length, vacuous: false, untested },
        hiddenTests,
        falsePositive: verdict === "pass" && hiddenTests.verdict === "fail",
      };
    },
    defaultMaxStepsPerTrial: 2,
    // Trial 1: up to MAX_INTERNAL_TEST_ASKS WriteTests steps, then Implement; later trials: Implement only.
    fixedStepsPerTrial: MAX_INTERNAL_TEST_ASKS + 1,
    defaultMemoryWindow: 1,
    maxOutputTokens: { actor: 1024, reflector: 1024 },
    promptVariables(task) {
      return { ...codePromptVariables(task.language), signature: task.prompt, entry_point: task.entryPoint };
    },
    actorVariables(task, context) {
      if (writesInternalTestsNext(context.trial, context.steps)) {
        const again = context.steps.at(-1);
        return { previous_attempt: again ? renderTestsAskedAgain(again.observation) : "", scratchpad: renderRequest("tests", task.prompt) };
      }
      const previous = context.strategy === "reflexion" ? lastImplementation(context.earlierTrials.at(-1) ?? []) : null;
      if (previous === null) return { previous_attempt: "", scratchpad: renderRequest("implementation", task.prompt) };
      return {
        previous_attempt: renderPreviousAttempt(previous.implementation, previous.feedback, task.language),
        scratchpad: renderRequest("improved", task.prompt),
      };
    },
    defaultTemplates: { actor: CODE_ACTOR_TEMPLATE, reflector: CODE_REFLECTOR_TEMPLATE },
    refineTemplates: { feedback: codeFeedbackTemplate, refine: codeRefineTemplate },
    renderAnswer: (task, answer) => fenced(answer, task.language),
    readRefinedAnswer: (completion) => extractCode(completion).code,
    requiredTemplateVariables: { actor: ["scratchpad"], reflector: ["scratchpad", "feedback"] },
    renderTrajectory(steps) {
      const last = lastImplementation(steps);
      if (!last) return "(no implementation was written)";
      const state = steps.map((step) => readCodeStepState(step.state)).find((s) => s !== null);
      return fenced(last.implementation, state?.language ?? "python");
    },
    renderMemory(memory) {
      return renderCodeMemory(memory);
    },
    stepPrefix() {
      return "";
    },
    actorStopSequences: [],
  };
}
