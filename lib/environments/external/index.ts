import type { EnvironmentFamily, SyncEpisode } from "@/lib/domain/environment";
import { AppError } from "@/lib/domain/errors";
import {
  externalActorTemplate,
  externalReflectorTemplate,
  parseToolCall,
  renderExternalMemory,
  renderExternalTrajectory,
  splitExternalCompletion,
} from "./prompts";
import { parseExternalTask, type ExternalTask } from "./task";

/** Why nothing here can act in an imported trace's world. */
const NO_WORLD = "Runs of imported agent traces cannot be run or continued here: the agent's tools and world are not in this app. Reflect on the trace instead (its failures feed the Self-Reflection).";

/**
 * The `external` family: runs imported from an outside agent's traces
 * (lib/importers/external/map-trace.ts). Its steps are the recorded turns (`tool(input)` as the
 * action), its verdict is the trace's own score (`evaluatorKind: "trace-score"`). There is no
 * episode to start and no Evaluator to run: both refuse with {@link NO_WORLD}. The Self-Reflection
 * template and the trajectory rendering are real, since the failures of imported traces are
 * reflected on like any other.
 */
export const externalEnvironment: EnvironmentFamily<ExternalTask> = {
  id: "external",
  parseTask: parseExternalTask,
  summarize: (task) => ({ id: task.id, title: task.title, reference: task.target, setting: task.input }),
  splitCompletion: splitExternalCompletion,
  parseAction: (text) => parseToolCall(text),
  startEpisode: (): SyncEpisode => {
    throw new AppError("conflict", NO_WORLD);
  },
  evaluate: () => {
    throw new AppError("conflict", NO_WORLD);
  },
  defaultMaxStepsPerTrial: 100,
  promptVariables: (task) => ({ task: task.input ?? task.title }),
  defaultTemplates: { actor: externalActorTemplate, reflector: externalReflectorTemplate },
  requiredTemplateVariables: { actor: ["task", "scratchpad"], reflector: ["task", "scratchpad"] },
  renderTrajectory: renderExternalTrajectory,
  renderMemory: renderExternalMemory,
  stepPrefix: (step) => `\nThought ${step}:`,
  actorStopSequences: ["\nObservation"],
};

/** Why `importTaskSet` refuses: the family's tasks come with their traces. */
export const EXTERNAL_NO_TASK_SET = "The imported-traces family has no task files: its runs come from trace files. Import them with `cli import-traces <file>` or POST /api/imports/traces.";

export { builtinExternalTasks, parseExternalTask, type ExternalTask } from "./task";
export { parseToolCall, toolCallText } from "./prompts";
