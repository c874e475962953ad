import type { PromptTemplate, RunConfig } from "@/lib/domain/config";
import type { EnvironmentFamily } from "@/lib/domain/environment";
import { draft, type ChatMessage, type EventDraft } from "@/lib/domain/events";
import type { RunState, TrialView } from "@/lib/domain/fold-run";
import { asCallId } from "@/lib/domain/ids";
import { feedbackSaysStop, GENERIC_FEEDBACK_TEMPLATE, GENERIC_REFINE_TEMPLATE, refinedAnswer } from "@/lib/domain/self-refine";
import type { CallEndDraft } from "./judge-calls";
import { callModel, type ModelCallContext } from "./model-calls";
import type { ModelRequest } from "./ports";
import { renderTemplate } from "./render-template";

/**
 * Self-Refine's two calls (Madaan et al. 2023, §2, Algorithm 1; lib/domain/self-refine.ts): the
 * feedback on the trial's current answer, and the refined answer. Both are made by the Actor's
 * model and settings (role `actor`, step null: the paper's one model M plays generator, critic and
 * refiner) through {@link callModel}, so the response cache serves them on a recorded replay. Each
 * returns its `model-call-end` and the event it caused, to be appended in one batch.
 */

/** Which round of which trial. */
export interface RefineAt {
  trial: number;
  round: number;
}

/** The run's feedback and refine templates: the config's (recorded when the run was built), else the family's defaults, else the generic ones. */
export function refineTemplatesOf(config: RunConfig, family: EnvironmentFamily<unknown>): { feedback: PromptTemplate; refine: PromptTemplate } {
  return {
    feedback: config.templates.feedback ?? family.refineTemplates?.feedback ?? GENERIC_FEEDBACK_TEMPLATE,
    refine: config.templates.refine ?? family.refineTemplates?.refine ?? GENERIC_REFINE_TEMPLATE,
  };
}

/** The answer under review in a round: the Actor's (round 1) or the last refined one. */
function currentAnswer(trial: TrialView): string {
  return refinedAnswer(trial) ?? trial.answer ?? "";
}

/**
 * The feedback or refine prompt: the template filled with the family's variables, `{task}` (the
 * task's one-line summary unless the family fills it), `{answer}` (rendered by the family) and
 * `{feedback}` (refine only). One user message, as the Actor's prompts are.
 */
export function buildRefineMessages<Task>(
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  kind: "feedback" | "refine",
  feedback = "",
): ChatMessage[] {
  const templates = refineTemplatesOf(config, family as EnvironmentFamily<unknown>);
  const answer = currentAnswer(trial);
  const variables: Record<string, string> = {
    task: family.summarize(task).title,
    ...family.promptVariables(task, config.strategy),
    answer: family.renderAnswer ? family.renderAnswer(task, answer) : answer,
    feedback,
  };
  return [{ role: "user", content: renderTemplate(templates[kind].text, variables).text }];
}

/** The answer a refine completion gives (the family's reader, else the trimmed text). */
export function readRefinedAnswer(family: EnvironmentFamily<unknown>, completion: string): string {
  return (family.readRefinedAnswer ? family.readRefinedAnswer(completion) : completion).trim();
}

/** What the two calls need from the engine. */
export interface RefineContext extends ModelCallContext {
  newId: () => string;
}

/** Round `at.round`'s feedback on the current answer: its `model-call-end` and `refine-feedback`. */
export async function feedbackDrafts<Task>(
  context: RefineContext,
  state: RunState,
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  at: RefineAt,
  callEnd: CallEndDraft,
): Promise<EventDraft[]> {
  const request: ModelRequest = {
    role: "actor",
    settings: config.models.actor,
    messages: buildRefineMessages(config, family, task, trial, "feedback"),
    stopSequences: [],
  };
  const response = await callModel(context, request, { role: "actor", trial: at.trial, step: null }, state.replayMode, (text) => text.trim() !== "");
  const callEventId = context.newId();
  const callId = asCallId(context.newId());
  const text = response.text.trim();
  return [
    callEnd(callEventId, callId, request, response, at.trial, null),
    draft("refine-feedback", { trial: at.trial, round: at.round, text, stop: feedbackSaysStop(text), callId }, { causedBy: callEventId }),
  ];
}

/** Round `at.round`'s refined answer, written with that round's feedback: its `model-call-end` and `refine-answer`. */
export async function refineDrafts<Task>(
  context: RefineContext,
  state: RunState,
  config: RunConfig,
  family: EnvironmentFamily<Task>,
  task: Task,
  trial: TrialView,
  at: RefineAt,
  callEnd: CallEndDraft,
): Promise<EventDraft[]> {
  const feedback = trial.refinements.find((round) => round.round === at.round)?.feedback?.text ?? "";
  const request: ModelRequest = {
    role: "actor",
    settings: config.models.actor,
    messages: buildRefineMessages(config, family, task, trial, "refine", feedback),
    stopSequences: [],
  };
  const read = (text: string) => readRefinedAnswer(family as EnvironmentFamily<unknown>, text);
  const response = await callModel(context, request, { role: "actor", trial: at.trial, step: null }, state.replayMode, (text) => read(text) !== "");
  const callEventId = context.newId();
  const callId = asCallId(context.newId());
  return [
    callEnd(callEventId, callId, request, response, at.trial, null),
    draft("refine-answer", { trial: at.trial, round: at.round, text: read(response.text), callId }, { causedBy: callEventId }),
  ];
}
