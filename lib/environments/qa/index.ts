import type { SyncEnvironmentFamily } from "@/lib/domain/environment";
import { parseAction, splitCompletion } from "./action-parser";
import { startQaEpisode } from "./environment";
import { evaluateQa } from "./exact-match";
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
import { parseQaTask, type QaTask } from "./task";

/**
 * The offline HotpotQA-style QA family (`qa`): a ReAct Actor answers a
 * multi-hop question with Search / Lookup / Finish over the task's own
 * paragraphs, and exact match against the gold answer judges the trial
 * (shared/docs/reflexion-reference.md §2). Everything is synchronous and
 * deterministic. It runs every strategy: the ReAct ones with one template, the
 * chain-of-thought ones (`cot`, `cot-gold-context`) with their own templates and
 * an episode without tools (docs/decisions/0008-strategies.md).
 */
export const qaEnvironment: SyncEnvironmentFamily<QaTask> = {
  id: "qa",
  parseTask: parseQaTask,
  summarize: (task) => ({ id: task.id, title: task.question, reference: task.answer }),
  splitCompletion,
  parseAction,
  startEpisode: startQaEpisode,
  evaluate: evaluateQa,
  defaultMaxStepsPerTrial: 6,
  promptVariables: qaPromptVariables,
  defaultTemplates: { actor: qaActorTemplate, reflector: qaReflectorTemplate },
  supportedStrategies: ["none", "reflexion", "last-attempt", "last-attempt-and-reflexion", "cot", "cot-gold-context"],
  templatesFor: qaTemplatesFor,
  renderLastAttempt,
  renderTrajectory,
  renderMemory,
  stepPrefix,
  actorStopSequences,
};

/** Re-exports for callers of the family: each item is documented where it is defined. */
export { builtinQaTasks } from "./builtin-tasks";
export { loadHotpotQa, type LoadHotpotQaOptions, type LoadHotpotQaResult } from "./hotpotqa-loader";
export { qaDemoScriptBook } from "./demo-script";
export { exactMatch, normalizeAnswer, evaluateQa } from "./exact-match";
export { parseAction, splitCompletion } from "./action-parser";
export { parseQaTask, qaTaskSchema, type QaTask, type QaParagraph } from "./task";
export { renderScratchpad, renderLastAttempt, qaTemplatesFor, goldContext } from "./prompts";
