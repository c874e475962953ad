import type { EnvironmentFamily, SyncEpisode } from "@/lib/domain/environment";
import { OpenEpisode } from "./episode";
import { evaluateOpenTrial } from "./evaluator";
import {
  buildJudgeMessages,
  JUDGE_VARIABLE_NAMES,
  openActorStopSequences,
  openActorTemplate,
  openJudgeTemplate,
  openReflectorTemplate,
  openStepPrefix,
  parseOpenAction,
  renderOpenMemory,
  renderOpenTrajectory,
  splitOpenCompletion,
} from "./prompts";
import { openTaskTitle, parseOpenTask, rubricSummary, type OpenTask } from "./task";
import { openFeedbackTemplate, openRefineTemplate } from "./refine-prompts";

/** Steps per trial by default: the answer, and one more ask when the first completion held no `Finish[...]`. */
export const OPEN_DEFAULT_STEPS = 2;

/**
 * The `open` family (docs/decisions/0025-llm-judge-open-tasks.md): open tasks
 * with a rubric, judged by a model. The Actor answers in one ReAct step (`Finish[answer]`); the
 * Evaluator asks the judge model (role `evaluator`, through the engine's {@link EvaluationContext})
 * to score each criterion, and passes the trial when the weighted score reaches the threshold —
 * a model's opinion, never an oracle. The Self-Reflection sees the judge's per-criterion feedback.
 * Strategies: `none` and `reflexion`.
 */
export const openEnvironment: EnvironmentFamily<OpenTask> = {
  id: "open",
  parseTask: parseOpenTask,
  // The rubric stands in the form's "reference" disclosure, labelled as what the judge scores (never in the Actor's prompt).
  summarize: (task) => ({ id: task.id, title: openTaskTitle(task), reference: rubricSummary(task) }),
  splitCompletion: splitOpenCompletion,
  parseAction: (actionText) => parseOpenAction(actionText),
  startEpisode: (): SyncEpisode => new OpenEpisode(),
  evaluate: (task, answer, _episode, context) => evaluateOpenTrial(task, answer, context),
  evaluatorUsesModel: true,
  defaultJudgeTemplate: openJudgeTemplate,
  judgeMessages: (task, answer, templateText) => buildJudgeMessages(templateText, task, answer),
  judgeVariableNames: JUDGE_VARIABLE_NAMES,
  defaultMaxStepsPerTrial: OPEN_DEFAULT_STEPS,
  // A whole answer (a commit message with its body, a list) needs more than the app's 256; the judge's JSON for up to 12 criteria too.
  maxOutputTokens: { actor: 512, reflector: 256, evaluator: 768 },
  promptVariables: (task) => ({ prompt: task.prompt }),
  defaultTemplates: { actor: openActorTemplate, reflector: openReflectorTemplate },
  refineTemplates: { feedback: openFeedbackTemplate, refine: openRefineTemplate },
  requiredTemplateVariables: { actor: ["prompt", "scratchpad"], reflector: ["prompt", "scratchpad"] },
  renderTrajectory: renderOpenTrajectory,
  renderMemory: renderOpenMemory,
  stepPrefix: openStepPrefix,
  actorStopSequences: openActorStopSequences,
};

export { builtinOpenTasks } from "./builtin-tasks";
export { builtinOpenDemoScripts } from "./builtin-demo-scripts";
export { openDemoScriptBook } from "./demo-script";
export { loadOpenTasks, type OpenTaskImport } from "./loader";
export { openTaskSchema, parseOpenTask, type OpenTask } from "./task";
export { openActorTemplate, openJudgeTemplate, openReflectorTemplate, renderJudgeFeedback, buildJudgeMessages } from "./prompts";
