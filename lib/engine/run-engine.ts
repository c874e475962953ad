import { randomUUID } from "node:crypto";
import type { Strategy } from "@/lib/domain/config";
import type { Episode, EnvironmentFamily, StepResult } from "@/lib/domain/environment";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { foldRun, type RunState, type TrialView } from "@/lib/domain/fold-run";
import { asCallId, type BranchId, type RunId } from "@/lib/domain/ids";
import { decideNext, type NextAction } from "./decide";
import { digestState } from "./digest";
import { ModelCallError, type EventLog, type ModelPort, type ModelRequest, type ModelResponse } from "./ports";
import { pauseAfter, pauseBefore } from "./breakpoints";
import { buildActorMessages, buildReflectorMessages, cleanReflection, trajectoryOf } from "./prompts";
import { strategyBehaviour } from "./strategies";

/** What the engine needs; all of it behind ports, so tests and the bench pass in-memory versions. */
export interface EngineDeps {
  log: EventLog;
  model: ModelPort;
  /** Resolves the task family named in the run's config. */
  environmentFor(id: string): EnvironmentFamily<unknown>;
  /** Fresh ids for events and model calls; defaults to UUID v4. */
  newId?: () => string;
}

/** Options of one {@link driveRun} call. */
export interface DriveOptions {
  runId: RunId;
  branchId: BranchId;
  /** Polled at every boundary between actions; `true` pauses the run there. */
  pauseRequested?: () => boolean;
  /** Polled at every boundary; `true` cancels the run there (`run-cancel` + `run-end` cancelled). */
  cancelRequested?: () => boolean;
  /** Aborts an in-flight model call (the run is then paused as by the user). */
  signal?: AbortSignal;
  /** Called after every successful append with the stored events. */
  onEvents?: (events: RunEvent[]) => void;
}

/** Why {@link driveRun} returned. */
export type DriveResult = { state: RunState; stoppedBecause: "paused" | "ended" | "error" | "no-run-start" };

/**
 * Runs the Reflexion loop (paper §3) from wherever the log stands until the run
 * pauses, ends or errors. Each iteration folds the branch's events, decides the
 * next action ({@link decideNext}), performs it and appends its events in one
 * atomic batch, so the log is always a consistent prefix of the run.
 *
 * Provider failures become `model-call-error` + `run-pause` (reason `model-error`),
 * never a failed trial. Unexpected exceptions become `run-error`. Throws only if
 * the event log itself fails.
 */
export async function driveRun(deps: EngineDeps, options: DriveOptions): Promise<DriveResult> {
  const newId = deps.newId ?? randomUUID;
  const { runId, branchId } = options;
  let events = await deps.log.list(runId, branchId);

  // Picks up everything appended since we last looked, including events other
  // writers added (edits and breakpoint changes made through the server).
  const refresh = async (): Promise<void> => {
    const newer = await deps.log.list(runId, branchId, events.at(-1)?.seq ?? 0);
    if (newer.length > 0) events = events.concat(newer);
  };
  const append = async (drafts: EventDraft[]): Promise<void> => {
    const stored = await deps.log.append(runId, branchId, drafts);
    options.onEvents?.(stored);
    await refresh();
  };

  for (;;) {
    await refresh();
    const state = foldRun(events);
    const next = decideNext(state, { earlyStop: earlyStopFor(deps, state) });
    if (next.kind === "idle") return { state, stoppedBecause: next.why };
    if (options.cancelRequested?.()) {
      await append([
        draft("run-cancel", { reason: "Cancelled by the user." }),
        draft("run-end", { outcome: "cancelled", trials: state.trials.length }),
      ]);
      continue;
    }
    if (options.pauseRequested?.() || options.signal?.aborted) {
      await append([draft("run-pause", { reason: "user", detail: "Paused by the user." })]);
      continue;
    }
    const before = pauseBefore(state, next);
    if (before) {
      await append([before]);
      continue;
    }
    try {
      await perform(next, state, deps, newId, append, () => events, options.signal);
      const after = pauseAfter(foldRun(events), next);
      if (after) await append([after]);
    } catch (error) {
      if (error instanceof ModelCallError) {
        if (error.code === "aborted") {
          await append([draft("run-pause", { reason: "user", detail: "Paused by the user during a model call." })]);
          continue;
        }
        await append([
          draft("model-call-error", {
            callId: asCallId(newId()),
            role: next.kind === "reflect" ? "reflector" : "actor",
            trial: "trial" in next ? next.trial : 1,
            step: next.kind === "actor-step" ? next.step : null,
            modelId: (next.kind === "reflect" ? state.config?.models.reflector : state.config?.models.actor)?.modelId ?? "",
            code: error.code,
            message: error.message,
            retryable: error.retryable,
            attempts: error.attempts,
          }),
          draft("run-pause", { reason: "model-error", detail: `${error.message} Resume the run to retry this call.`, at: null }),
        ]);
        continue;
      }
      const message = error instanceof Error ? error.message : String(error);
      await append([draft("run-error", { code: "internal", message })]);
    }
  }
}

type Append = (drafts: EventDraft[]) => Promise<void>;

function observationDraft(stepData: { trial: number; step: number }, result: StepResult): EventDraft {
  return draft("step-observation", {
    ...stepData,
    text: result.observation,
    done: result.done,
    answer: result.answer,
    state: result.state ?? null,
  });
}

/**
 * Rebuilds a trial's episode: from its recorded steps when the family can
 * (`restoreEpisode`, e.g. code, whose steps ran in the sandbox), else by
 * replaying its recorded actions (those environments are deterministic).
 */
async function replayEpisode<Task>(family: EnvironmentFamily<Task>, task: Task, state: RunState, trial: TrialView, strategy: Strategy): Promise<Episode> {
  const earlierTrials = state.trials.filter((t) => t.trial < trial.trial).map(trajectoryOf);
  const options = { strategy, trial: trial.trial, earlierTrials };
  if (family.restoreEpisode) return family.restoreEpisode(task, trajectoryOf(trial), options);
  const episode = family.startEpisode(task, options);
  for (const step of trial.steps) {
    if (step.action && step.observation) await episode.step(family.parseAction(step.action.text, { trial: trial.trial, step: step.step }));
  }
  return episode;
}

/** The family's early-stop heuristic over a trial's recorded steps, if it has one. */
function earlyStopFor(deps: EngineDeps, state: RunState): ((trial: TrialView) => string | null) | undefined {
  if (!state.config) return undefined;
  const family = deps.environmentFor(state.config.environment);
  const earlyStop = family.earlyStop;
  if (!earlyStop) return undefined;
  return (trial) => earlyStop.call(family, trajectoryOf(trial));
}

async function perform(
  next: Exclude<NextAction, { kind: "idle" }>,
  state: RunState,
  deps: EngineDeps,
  newId: () => string,
  append: Append,
  currentEvents: () => RunEvent[],
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!state.config) throw new Error("run has no run-start event");
  // The config as edited so far: prompt templates and model settings may have been changed while paused.
  const config = { ...state.config, templates: state.templates ?? state.config.templates, models: state.models ?? state.config.models };
  const family = deps.environmentFor(config.environment);
  const task = family.parseTask(config.task);
  const trialView = (trial: number): TrialView => {
    const view = state.trials.find((t) => t.trial === trial);
    if (!view) throw new Error(`trial ${trial} has no trial-start event`);
    return view;
  };

  switch (next.kind) {
    case "start-trial": {
      const { inContext, evicted } = strategyBehaviour(config.strategy).memoryForTrial(state.memory, config.memoryWindow);
      await append([draft("trial-start", { trial: next.trial, memory: inContext, evicted })]);
      return;
    }
    case "actor-step": {
      const trial = trialView(next.trial);
      const stepData = { trial: next.trial, step: next.step };
      const pending = state.pendingAction;
      if (pending && pending.trial === next.trial && pending.step === next.step) {
        // A person wrote this step's action (`action-edit`): execute it without calling the model.
        const parsed = family.parseAction(pending.text, stepData);
        const result = await (await replayEpisode(family, task, state, trial, config.strategy)).step(parsed);
        await append([
          draft("step-action", {
            ...stepData,
            text: pending.text,
            action: parsed.ok ? parsed.action : null,
            parseError: parsed.ok ? null : parsed.error,
            callId: null,
          }),
          observationDraft(stepData, result),
        ]);
        return;
      }
      const request: ModelRequest = {
        role: "actor",
        settings: config.models.actor,
        messages: buildActorMessages(config, family, task, trial, next.step, state.trials.find((t) => t.trial === next.trial - 1) ?? null, state.trials),
        stopSequences: family.actorStopSequences,
      };
      const response = await deps.model.generate(request, { signal, replay: state.replayMode });
      const callEventId = newId();
      const callId = asCallId(newId());
      const completion = family.splitCompletion(response.text);
      const parsed = family.parseAction(completion.actionText, stepData);
      const result = await (await replayEpisode(family, task, state, trial, config.strategy)).step(parsed);
      await append([
        callEnd(callEventId, callId, request, response, next.trial, next.step),
        draft("step-thought", { ...stepData, text: completion.thought, callId }, { causedBy: callEventId }),
        draft(
          "step-action",
          {
            ...stepData,
            text: completion.actionText,
            action: parsed.ok ? parsed.action : null,
            parseError: parsed.ok ? null : parsed.error,
            callId,
          },
          { causedBy: callEventId },
        ),
        observationDraft(stepData, result),
      ]);
      return;
    }
    case "evaluate": {
      const verdict = await family.evaluate(task, next.answer, await replayEpisode(family, task, state, trialView(next.trial), config.strategy));
      const outcome = verdict.verdict === "pass" ? "success" : next.halted ? "halted" : "failure";
      const reason = next.halted && verdict.verdict !== "pass" ? (next.haltReason ?? verdict.feedback) : verdict.feedback;
      const drafts = [
        draft("evaluation-end", { trial: next.trial, ...verdict }),
        draft("trial-end", { trial: next.trial, outcome, reason }),
      ];
      await appendWithCheckpoint(drafts, next.trial, append, currentEvents);
      return;
    }
    case "reflect": {
      const trial = trialView(next.trial);
      const request: ModelRequest = {
        role: "reflector",
        settings: config.models.reflector,
        messages: buildReflectorMessages(config, family, task, trial),
        stopSequences: [],
      };
      const response = await deps.model.generate(request, { signal, replay: state.replayMode });
      const callEventId = newId();
      const callId = asCallId(newId());
      const drafts = [
        callEnd(callEventId, callId, request, response, next.trial, null),
        draft("reflection-end", { trial: next.trial, text: cleanReflection(response.text), callId }, { causedBy: callEventId }),
      ];
      await appendWithCheckpoint(drafts, next.trial, append, currentEvents);
      return;
    }
    case "end-run":
      await append([draft("run-end", { outcome: next.outcome, trials: state.trials.length })]);
      return;
  }
}

/**
 * Appends `drafts`, then a `checkpoint` whose digest is the folded state after
 * them (a safe place to resume or fork). Two appends: if the process dies in
 * between, the log merely lacks that checkpoint; decisions never depend on it.
 */
async function appendWithCheckpoint(
  drafts: EventDraft[],
  trial: number,
  append: Append,
  currentEvents: () => RunEvent[],
): Promise<void> {
  await append(drafts);
  await append([draft("checkpoint", { trial, digest: digestState(foldRun(currentEvents())) })]);
}

function callEnd(
  eventId: string,
  callId: ReturnType<typeof asCallId>,
  request: ModelRequest,
  response: ModelResponse,
  trial: number,
  step: number | null,
): EventDraft {
  return draft(
    "model-call-end",
    {
      callId,
      role: request.role,
      trial,
      step,
      settings: request.settings,
      requestHash: response.requestHash,
      messages: request.messages,
      outputText: response.text,
      usage: response.usage,
      costUsd: response.costUsd,
      latencyMs: response.latencyMs,
      finishReason: response.finishReason,
      source: response.source,
    },
    { id: eventId },
  );
}
