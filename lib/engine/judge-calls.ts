import type { ModelSettings, RunConfig } from "@/lib/domain/config";
import type { EnvironmentFamily, EvaluationContext } from "@/lib/domain/environment";
import { draft, type EventDraft } from "@/lib/domain/events";
import type { RunState } from "@/lib/domain/fold-run";
import { asCallId } from "@/lib/domain/ids";
import { JUDGE_UNREADABLE_CODE, JudgeUnreadableError } from "@/lib/domain/judge";
import { callModel, type EngineResponse, type ModelCallContext } from "./model-calls";
import type { ModelRequest } from "./ports";

/**
 * The engine's side of an LLM-judge Evaluator (docs/decisions/0025): the
 * {@link EvaluationContext} a family with `evaluatorUsesModel` receives in `evaluate`. Each judge
 * call goes through the same model port as every other call (response cache, recorded replay,
 * the SDK's retries, completions asked again when empty) with role `evaluator`, and its
 * `model-call-end` (step null) is appended in the same batch as the `evaluation-end`, before it.
 * Judge calls are not streamed to watchers (their JSON is shown once recorded).
 */

/** Builds one `model-call-end` draft (the engine's `callEnd`). */
export type CallEndDraft = (eventId: string, callId: ReturnType<typeof asCallId>, request: ModelRequest, response: EngineResponse, trial: number, step: number | null) => EventDraft;

/**
 * The judge's model and settings: the run's `models.evaluator`, else the Actor's model at
 * temperature 0 with the family's Evaluator output limit (`maxOutputTokens.evaluator`).
 */
export function evaluatorSettings(config: RunConfig, family: EnvironmentFamily<unknown>): ModelSettings {
  if (config.models.evaluator) return config.models.evaluator;
  const limit = family.maxOutputTokens?.evaluator ?? config.models.actor.maxOutputTokens;
  return { ...config.models.actor, temperature: 0, maxOutputTokens: limit };
}

/** A judge session for one evaluation: the context to pass to `evaluate`, and the drafts of the calls it made. */
export interface JudgeSession {
  /** Undefined for families whose Evaluator needs no model (they are called exactly as before). */
  context: EvaluationContext | undefined;
  /** The `model-call-end` drafts of the judge calls made so far, in order. */
  drafts: EventDraft[];
}

/** Opens a {@link JudgeSession} for judging `trial`. */
export function openJudgeSession(
  context: ModelCallContext & { newId: () => string },
  state: RunState,
  config: RunConfig,
  family: EnvironmentFamily<unknown>,
  trial: number,
  callEnd: CallEndDraft,
): JudgeSession {
  const session: JudgeSession = { context: undefined, drafts: [] };
  if (!family.evaluatorUsesModel) return session;
  const settings = evaluatorSettings(config, family);
  session.context = {
    trial,
    template: config.templates.evaluator ?? null,
    async judge(messages) {
      const request: ModelRequest = { role: "evaluator", settings, messages, stopSequences: [] };
      const response = await callModel(context, request, null, state.replayMode, (text) => text.trim() !== "");
      const callId = asCallId(context.newId());
      session.drafts.push(callEnd(context.newId(), callId, request, response, trial, null));
      return { text: response.text, callId, modelId: settings.modelId };
    },
  };
  return session;
}

/**
 * What to append when `evaluate` threw during a judge session: the judge calls already made
 * (never lost), and for an unreadable judge answer ({@link JudgeUnreadableError}) a
 * `model-call-error` (code `judge-unreadable`, role `evaluator`) and a `run-pause`
 * (`model-error`): the trial is not failed for the judge's fault, and resuming asks the judge again.
 * Returns null when the error is not the judge's answer (the caller rethrows it after appending `session.drafts`).
 */
export function judgeFailureDrafts(session: JudgeSession, error: unknown, trial: number, modelId: string, newId: () => string): EventDraft[] | null {
  if (!(error instanceof JudgeUnreadableError)) return null;
  return [
    ...session.drafts,
    draft("model-call-error", {
      callId: asCallId(newId()),
      role: "evaluator",
      trial,
      step: null,
      modelId,
      code: JUDGE_UNREADABLE_CODE,
      message: error.message,
      retryable: true,
      attempts: error.callIds.length,
    }),
    draft("run-pause", { reason: "model-error", detail: error.message, at: null }),
  ];
}
