import type { Episode, TrajectoryStep, Verdict } from "@/lib/domain/environment";
import { HouseholdEpisode } from "./episode";
import { describeGoal } from "./goals";
import type { HouseholdTask } from "./task";
import { parseAction } from "./commands";
import {
  DEFAULT_CYCLE_PERIODS,
  DEFAULT_REPEAT_LIMIT as DEFAULT_LOOP_REPEAT_LIMIT,
  detectLoop,
  foldActionText,
  type ActionReading,
} from "@/lib/environments/qa/loop-rules";

/**
 * The household Evaluator: the environment's own success flag (ALFWorld `won`,
 * not `done`; reference §3.5, §11 item 1) plus the paper's heuristics that end
 * a trial early so the Self-Reflection model can diagnose it [paper §4.1]:
 * the same action with the same observation over and over ("hallucination"),
 * and too many actions ("inefficient planning"). Short cycles (A, B, A, B with
 * the same observations) count as loops too (loop-rules.ts; our addition,
 * docs/decisions/0014-action-readers-and-loops.md).
 */

/** The paper's heuristic: the same action and observation this many times in a row ends the trial. */
export const DEFAULT_REPEAT_LIMIT = DEFAULT_LOOP_REPEAT_LIMIT;
/** The paper's step budget per trial ("more than 30 actions", reference §3.5). */
export const DEFAULT_STEP_BUDGET = 30;

/** Settings of the early-stop heuristics. */
export interface HouseholdHeuristics {
  /** Halt when the last `repeatLimit` steps have the same action and the same observation (≥ 2). Default 3. */
  repeatLimit: number;
  /**
   * Halt when the last 2p steps are the same p steps twice in a row (same
   * actions, same observations), for each period p here (loop-rules.ts).
   * Default 2 and 3; `[]` turns it off.
   */
  cyclePeriods: readonly number[];
  /**
   * Halt once this many steps were taken without success; null leaves the budget
   * to the engine's `maxStepsPerTrial` (whose default for this family is 30).
   */
  stepBudget: number | null;
}

/** The family's defaults: repetition limit 3, cycles of 2 and 3 steps, step budget left to the run config. */
export const DEFAULT_HEURISTICS: HouseholdHeuristics = { repeatLimit: DEFAULT_REPEAT_LIMIT, cyclePeriods: DEFAULT_CYCLE_PERIODS, stepBudget: null };

/** A step as the heuristics see it. */
export interface ActionObservation {
  actionText: string;
  observation: string;
}

/**
 * How household actions compare: as the parser reads them — a leading `>`, an
 * `Action:` label, quotes, case, runs of whitespace and trailing punctuation do
 * not matter (`> Go to  desk 1.` ≡ `go to desk 1`). Quoted as the command read.
 */
export const householdActionReading: ActionReading = {
  key: (actionText) => foldActionText(readCompletionCommand(actionText)),
  display: (actionText) => readCompletionCommand(actionText).replace(/\s+/gu, " "),
};

/** The command a text reads as (parseAction's `text`), for comparing and quoting. */
function readCompletionCommand(actionText: string): string {
  return parseAction(actionText).text;
}

/** Why a trial should stop now, as a kind and a sentence; null when it may go on. */
export interface HaltReason {
  /** `stall` never happens here: the household reading has no `stallKey` (loop-rules.ts). */
  kind: "repetition" | "stall" | "cycle" | "step-budget";
  message: string;
}

/**
 * Applies the heuristics to the steps so far (oldest first): the loop rules
 * (repetition, then cycles; loop-rules.ts) before the budget, so when both
 * hold at the same step the loop is the reason given. Pure.
 */
export function detectHalt(steps: readonly ActionObservation[], heuristics: Partial<HouseholdHeuristics> = DEFAULT_HEURISTICS): HaltReason | null {
  const settings: HouseholdHeuristics = { ...DEFAULT_HEURISTICS, ...heuristics };
  const loop = detectLoop(steps, householdActionReading, settings);
  if (loop !== null) return loop;
  if (settings.stepBudget !== null && steps.length >= settings.stepBudget) {
    return { kind: "step-budget", message: `The step budget of ${settings.stepBudget} actions ran out before the task was done.` };
  }
  return null;
}

/** `EnvironmentFamily.earlyStop` with the given heuristics: the halt sentence, or null. */
export function householdEarlyStop(steps: readonly TrajectoryStep[], heuristics: Partial<HouseholdHeuristics> = DEFAULT_HEURISTICS): string | null {
  return detectHalt(steps, heuristics)?.message ?? null;
}

/**
 * Judges a household trial from its replayed episode: `pass` exactly when the
 * goal was met (`answer` is ignored: the world state decides).
 *
 * The feedback names the goal and, on failure, why the trial ended: a
 * repetition or a cycle (checked on the episode's own history with
 * `heuristics`, the same sentence `earlyStop` gave the engine), or the number
 * of actions taken. It never says where things are. `evaluatorKind` is
 * `environment-success`; `oracle` is false: the signal is the game's own
 * win flag, which the paper treats as the environment's reward, not a gold label.
 * `details`: `{ won, steps, goal, halt }` (`halt` is the repetition, cycle or
 * budget reason, or null).
 */
export function evaluateHousehold(
  task: HouseholdTask,
  _answer: string | null,
  episode: Episode,
  heuristics: Partial<HouseholdHeuristics> = DEFAULT_HEURISTICS,
): Verdict {
  const goal = describeGoal(task);
  if (!(episode instanceof HouseholdEpisode)) {
    return {
      verdict: "fail",
      score: 0,
      feedback: "The trial could not be judged: the episode is not a household episode.",
      evaluatorKind: "environment-success",
      oracle: false,
      details: { won: false, steps: 0, goal, halt: null },
    };
  }
  const history = episode.history.filter((step) => !step.afterWin);
  const steps = history.length;
  if (episode.won) {
    return {
      verdict: "pass",
      score: 1,
      feedback: `Task completed in ${steps} actions: ${goal}.`,
      evaluatorKind: "environment-success",
      oracle: false,
      details: { won: true, steps, goal, halt: null },
    };
  }
  const halt = detectHalt(
    history.map((step) => ({ actionText: step.action, observation: step.observation })),
    heuristics,
  );
  const why = halt?.message ?? `The trial ended after ${steps} actions.`;
  return {
    verdict: "fail",
    score: 0,
    feedback: `Task not completed: the goal (${goal}) was not reached. ${why}`,
    evaluatorKind: "environment-success",
    oracle: false,
    details: { won: false, steps, goal, halt: halt === null ? null : { kind: halt.kind, message: halt.message } },
  };
}
