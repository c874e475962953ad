import { REFLECTION_TOKEN_BUDGET } from "@/lib/domain/context-budget";
import type { SyncEnvironmentFamily } from "@/lib/domain/environment";
import { parseAction, splitCompletion } from "./action-parser";
import { startQaEpisode } from "./environment";
import { DEFAULT_LOOP_RULES, type LoopRules } from "./loop-rules";
import { evaluateQaTrial, qaEarlyStop } from "./loops";
import {
  actorStopSequences,
  qaActorTemplate,
  qaPromptVariables,
  qaReflectorTemplate,
  qaTemplatesFor,
  renderLastAttempt,
  renderMemory,
  renderTrajectory,
  stepPrefix,
} from "./prompts";
import { qaFeedbackTemplate, qaRefineTemplate, readQaRefinedAnswer } from "./refine-prompts";
import { parseQaTask, type QaTask } from "./task";

/**
 * Builds the offline HotpotQA-style QA family (`qa`): a ReAct Actor answers a
 * multi-hop question with Search / Lookup / Finish over the task's own
 * paragraphs, and exact match against the gold answer judges the trial
 * (shared/docs/reflexion-reference.md §2). Everything is synchronous and
 * deterministic. It runs every strategy: the ReAct ones with one template, the
 * chain-of-thought ones (`cot`, `cot-gold-context`) with their own templates and
 * an episode without tools (docs/decisions/0008-strategies.md). A trial that
 * loops halts early (loops.ts; docs/decisions/0014-action-readers-and-loops.md).
 *
 * @param rules the loop rules: `repeatLimit` (default 3) and `cyclePeriods`
 *   (default 2 and 3; `[]` turns cycles off). `repeatLimit: Infinity` with
 *   `cyclePeriods: []` turns the early stops off.
 */
export function createQaEnvironment(rules: Partial<LoopRules> = {}): SyncEnvironmentFamily<QaTask> {
  const settings: LoopRules = { ...DEFAULT_LOOP_RULES, ...rules };
  return {
    ...qaFamilyBase,
    evaluate: (task, answer, episode) => evaluateQaTrial(task, answer, episode, settings),
    earlyStop: (steps) => qaEarlyStop(steps, settings),
  };
}

const qaFamilyBase: Omit<SyncEnvironmentFamily<QaTask>, "evaluate"> = {
  id: "qa",
  parseTask: parseQaTask,
  summarize: (task) => ({ id: task.id, title: task.question, reference: task.answer }),
  splitCompletion,
  parseAction,
  startEpisode: startQaEpisode,
  defaultMaxStepsPerTrial: 6,
  reflectionTokenBudget: REFLECTION_TOKEN_BUDGET,
  promptVariables: qaPromptVariables,
  defaultTemplates: { actor: qaActorTemplate, reflector: qaReflectorTemplate },
  requiredTemplateVariables: { actor: ["question", "scratchpad"], reflector: ["question", "scratchpad"] },
  ownStrategies: ["cot", "cot-gold-context"],
  templatesFor: qaTemplatesFor,
  refineTemplates: { feedback: qaFeedbackTemplate, refine: qaRefineTemplate },
  readRefinedAnswer: readQaRefinedAnswer,
  renderLastAttempt,
  renderTrajectory,
  renderMemory,
  stepPrefix,
  actorStopSequences,
};

/** The QA family with the default loop rules (the same action and observation 3 times in a row; cycles of 2 and 3 steps). */
export const qaEnvironment: SyncEnvironmentFamily<QaTask> = createQaEnvironment();

/** Re-exports for callers of the family: each item is documented where it is defined. */
export { builtinQaTasks } from "./builtin-tasks";
export { loadHotpotQa, type LoadHotpotQaOptions, type LoadHotpotQaResult } from "./hotpotqa-loader";
export { qaDemoScriptBook } from "./demo-script";
export { exactMatch, normalizeAnswer, evaluateQa } from "./exact-match";
export { parseAction, splitCompletion, displayAction, findFirstAction, QA_ACTION_FORMS } from "./action-parser";
export { stripReasoning, type ReasoningSplit } from "./reasoning-blocks";
export { detectLoop, foldActionText, DEFAULT_LOOP_RULES, DEFAULT_CYCLE_PERIODS, type LoopRules, type LoopHalt, type LoopStep, type ActionReading } from "./loop-rules";
export { qaEarlyStop, detectQaLoop, evaluateQaTrial, qaActionReading } from "./loops";
export { parseQaTask, qaTaskSchema, type QaTask, type QaParagraph } from "./task";
export { renderScratchpad, renderLastAttempt, qaTemplatesFor, goldContext } from "./prompts";
