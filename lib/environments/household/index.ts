import type { SyncEnvironmentFamily } from "@/lib/domain/environment";
import { parseAction, splitCompletion } from "./commands";
import { startHouseholdEpisode } from "./episode";
import { DEFAULT_HEURISTICS, DEFAULT_STEP_BUDGET, evaluateHousehold, householdEarlyStop, type HouseholdHeuristics } from "./evaluator";
import { describeGoal } from "./goals";
import {
  actorStopSequences,
  householdActorTemplate,
  householdPromptVariables,
  householdReflectorTemplate,
  openingText,
  renderLastAttempt,
  renderMemory,
  renderTrajectory,
  stepPrefix,
} from "./prompts";
import { parseHouseholdTask, type HouseholdTask } from "./task";

/**
 * Builds the ALFWorld-style household family (`household`) with the given
 * early-stop heuristics: a ReAct Actor types one command per step in a
 * TypeScript text world that behaves like ALFWorld (the paper's transcripts
 * replay in it word for word, conformance.ts), and the Evaluator judges by the
 * world's own success flag, stopping trials that loop (reference §3).
 * Everything is synchronous and deterministic.
 *
 * @param heuristics `repeatLimit` (default 3), `cyclePeriods` (default 2 and 3;
 *   `[]` turns cycle detection off; loop-rules.ts) and `stepBudget` (default
 *   null: the engine's `maxStepsPerTrial`, whose family default is 30).
 */
export function createHouseholdEnvironment(heuristics: Partial<HouseholdHeuristics> = {}): SyncEnvironmentFamily<HouseholdTask> {
  const settings: HouseholdHeuristics = { ...DEFAULT_HEURISTICS, ...heuristics };
  return {
    id: "household",
    parseTask: parseHouseholdTask,
    summarize: (task) => ({ id: task.id, title: task.description, reference: `Goal: ${describeGoal(task)}`, setting: openingText(task) }),
    splitCompletion,
    parseAction,
    startEpisode: startHouseholdEpisode,
    evaluate: (task, answer, episode) => evaluateHousehold(task, answer, episode, settings),
    earlyStop: (steps) => householdEarlyStop(steps, settings),
    defaultMaxStepsPerTrial: DEFAULT_STEP_BUDGET,
    promptVariables: householdPromptVariables,
    defaultTemplates: { actor: householdActorTemplate, reflector: householdReflectorTemplate },
    requiredTemplateVariables: { actor: ["initialObservation", "scratchpad"], reflector: ["initialObservation", "scratchpad"] },
    // Chain of thought is a QA setting (one Thought, then Finish); it has no household counterpart.
    renderLastAttempt,
    renderTrajectory,
    renderMemory,
    stepPrefix,
    actorStopSequences,
  };
}

/** The household family with the paper's heuristics (same action and observation 3 times in a row; 30 steps) and our cycle rule (the same 2 or 3 steps twice in a row). */
export const householdEnvironment: SyncEnvironmentFamily<HouseholdTask> = createHouseholdEnvironment();

/** Re-exports for callers of the family: each item is documented where it is defined. */
export { builtinHouseholdTasks } from "./builtin-tasks";
export { builtinHouseholdDemoScripts } from "./builtin-demo-scripts";
export { householdDemoScriptBook, type HouseholdDemoScript } from "./demo-script";
export { importHouseholdTaskSet, type HouseholdImportResult } from "./import";
export {
  runHouseholdConformance,
  checkTranscript,
  replayTranscript,
  compareObservation,
  type ConformanceReport,
  type ConformanceResult,
  type ConformanceDifference,
} from "./conformance";
export { parseTranscript, sceneFromTranscript, type ParsedTranscript, type TranscriptStep } from "./transcript";
export { generateHouseholdTask, generateHouseholdTaskSet, ROOMS_FOR_TASK, SHARED_LOCATIONS, type GenerateHouseholdTaskOptions } from "./generator";
export { expertPlan } from "./expert";
export { mulberry32, createRandom, type Random } from "./prng";
export { HouseholdEpisode, startHouseholdEpisode, type HouseholdStepRecord } from "./episode";
export { HouseholdWorld, type AgentSnapshot } from "./world";
export { isGoalMet, describeGoal } from "./goals";
export {
  evaluateHousehold,
  householdEarlyStop,
  householdActionReading,
  detectHalt,
  DEFAULT_HEURISTICS,
  DEFAULT_REPEAT_LIMIT,
  DEFAULT_STEP_BUDGET,
  type HouseholdHeuristics,
} from "./evaluator";
export { parseAction, splitCompletion, parseHouseholdCommand, normaliseCommand, readCommandLine, type HouseholdCommand, type CommandReading } from "./commands";
export {
  householdTaskSchema,
  parseHouseholdTask,
  parseTaskDescription,
  HOUSEHOLD_TASK_TYPES,
  type HouseholdTask,
  type HouseholdTaskType,
  type HouseholdScene,
  type HouseholdGoal,
} from "./task";
export { householdActorTemplate, householdReflectorTemplate, renderMemory, renderTrajectory, renderLastAttempt, MEMORY_HEADER } from "./prompts";
