// Over 400 lines: the Reflexion loop itself (trial → steps → evaluation → reflection), with its pause
// points at step boundaries; the parts that stand alone (model calls, judge calls, budgets, prompts) live
// in their own files, and what is left reads top to bottom as the paper's Algorithm 1.
import { randomUUID } from "node:crypto";
import type { Episode, StepResult } from "@/lib/domain/environment";
import { draft, type EventDraft, type RunEvent } from "@/lib/domain/events";
import { applyEvent, emptyRunState, type RunState, type TrialView } from "@/lib/domain/fold-run";
import { memoryForTrial } from "@/lib/domain/next-trial";
import { asCallId, type BranchId, type RunId } from "@/lib/domain/ids";
import { decideNext, type NextAction } from "./decide";
import { digestState } from "./digest";
import { ModelCallError, type ModelRequest } from "./ports";
import { pauseAfter, pauseBefore } from "./breakpoints";
import { actorCachePrefixChars, buildActorMessages, buildActorPrompt, buildReflectorMessages, buildReflectorPrompt, cleanReflection, trajectoryOf } from "./prompts";
import { MAX_COMPLETION_ATTEMPTS, reflectionProblem } from "./completion-checks";
import { abortable, callModel, isAbort, type CallObserver, type EngineResponse, type ModelCallContext } from "./model-calls";
import { EpisodeCache } from "./episode-cache";
import { strategyBehaviour } from "./strategies";
import { summarizeMemory } from "./memory-summary";
import { evaluatorSettings, judgeFailureDrafts, openJudgeSession } from "./judge-calls";
import { adaptiveNext, budgetPause, spendingLimitPause } from "./budget-gate";
import { rememberReflection, warmStartDraft } from "./warm-start";
import { insightsDraft } from "./insights-carry";
import type { EngineDeps } from "./engine-deps";
import { performTreeAction, rolloutSettings } from "./tree-phase";
import { feedbackDrafts, refineDrafts } from "./refine-calls";

export type { CallInfo, CallObserver } from "./model-calls";
export type { EngineDeps } from "./engine-deps";

/** Options of one {@link driveRun} call. */
export interface DriveOptions {
  runId: RunId;
  branchId: BranchId;
  /**
   * Polled at every boundary between actions; `true` makes `driveRun` return
   * there without appending anything, so the branch stays runnable for another
   * worker (a worker shutting down, or one that lost its lease).
   */
  stopRequested?: () => boolean;
  /**
   * Aborts the model call or sandbox job in flight. The driver then re-reads the
   * log: a `cancel-request` there cancels the run, a stop returns, anything else
   * pauses it as by the user.
   */
  signal?: AbortSignal;
  /** Called after every successful append with the stored events. */
  onEvents?: (events: RunEvent[]) => void;
  /** Watches model calls as they run (live token deltas, "running for 12 s"). */
  onCall?: CallObserver;
}

/** Why {@link driveRun} returned. `stopped`: {@link DriveOptions.stopRequested} said so. */
export type DriveResult = { state: RunState; stoppedBecause: "paused" | "ended" | "error" | "no-run-start" | "stopped" };

/** Lets timers and I/O run between two actions; default `setImmediate` (a macrotask). */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs the Reflexion loop (paper §3) from wherever the log stands until the run
 * pauses, ends, errors or is told to stop. The branch's events are folded once
 * and then incrementally ({@link applyEvent}), so each iteration costs the same
 * however long the run is. Each iteration decides the next action
 * ({@link decideNext}), performs it and appends its events in one atomic batch,
 * so the log is always a consistent prefix of the run.
 *
 * Control is read from the log at every boundary: a `cancel-request` there
 * becomes `run-cancel` + `run-end` (cancelled), a `pause-request` becomes
 * `run-pause` (reason `user`) — whoever appended them, in whatever process.
 *
 * Provider failures become `model-call-error` + `run-pause` (reason `model-error`),
 * never a failed trial. Unexpected exceptions become `run-error`. Throws only if
 * the event log itself fails.
 */
export async function driveRun(deps: EngineDeps, options: DriveOptions): Promise<DriveResult> {
  const newId = deps.newId ?? randomUUID;
  const pause = deps.yieldToEventLoop ?? yieldToEventLoop;
  const { runId, branchId } = options;
  // Only the fold is kept, not the events themselves: the log is in the store.
  const state = emptyRunState();
  const episodes = new EpisodeCache();

  // Picks up everything appended since we last looked, including events other
  // writers added (edits, breakpoint changes, pause and cancel requests).
  const refresh = async (): Promise<void> => {
    const newer = await deps.log.list(runId, branchId, state.lastSeq);
    for (const event of newer) applyEvent(state, event);
  };
  const append = async (drafts: EventDraft[]): Promise<void> => {
    const stored = await deps.log.append(runId, branchId, drafts);
    options.onEvents?.(stored);
    // Live calls count against the owner's and the lab's budgets across runs.
    if (deps.spending) for (const event of stored) if (event.type === "model-call-end") await deps.spending.record(runId, event.data, event.occurredAt);
    // Our batch came right after what we had seen (the usual case): fold it as the store returned
    // it, without reading it back. If another writer appended in between, read everything since.
    // Either way the next boundary's refresh picks up what others append later.
    if (stored[0]?.seq === state.lastSeq + 1) for (const event of stored) applyEvent(state, event);
    else await refresh();
  };

  for (let iteration = 0; ; iteration += 1) {
    if (iteration > 0) await pause();
    await refresh();
    if (options.stopRequested?.()) return { state, stoppedBecause: "stopped" };
    // Adaptive trials may end the run where another trial would start.
    const next = adaptiveNext(state, decideNext(state, { earlyStop: earlyStopFor(deps, state) }));
    if (next.kind === "idle") return { state, stoppedBecause: next.why };
    if (state.cancelRequested) {
      await append([
        draft("run-cancel", { reason: "Cancelled by the user." }),
        draft("run-end", { outcome: "cancelled", trials: state.trials.length }),
      ]);
      continue;
    }
    if (state.pauseRequested) {
      await append([draft("run-pause", { reason: "user", detail: "Paused by the user." })]);
      continue;
    }
    const before = pauseBefore(state, next);
    if (before) {
      await append([before]);
      continue;
    }
    // A spent budget pauses the run here, between two actions (status budget-exhausted).
    const family = state.config ? deps.environmentFor(state.config.environment) : null;
    const overBudget = budgetPause(state, next, family) ?? (await spendingLimitPause(deps.spending, runId, state, next, family));
    if (overBudget) {
      await append([overBudget]);
      continue;
    }
    // What perform() reads of the state must not change under it: appends fold into `state` in place.
    const config = state.config;
    try {
      await perform(next, state, { deps, newId, append, signal: options.signal, onCall: options.onCall, requestCounts: state.requestCounts, episodes, cacheScope: config?.cacheScope ?? null, ids: { runId, branchId } });
      const after = pauseAfter(state, next);
      if (after) await append([after]);
    } catch (error) {
      // The cached episode may have taken a step that was never recorded.
      episodes.clear();
      if (error instanceof ModelCallError || isAbort(error, options.signal)) {
        if (options.signal?.aborted || (error instanceof ModelCallError && error.code === "aborted")) {
          await refresh();
          if (state.cancelRequested || options.stopRequested?.()) continue;
          await append([draft("run-pause", { reason: "user", detail: "Paused by the user during a model call." })]);
          continue;
        }
      }
      if (error instanceof ModelCallError) {
        // start-trial calls a model only to summarise the memory, with the Self-Reflection model.
        // The LLM judge calls a model while evaluating, as the Evaluator.
        const role = next.kind === "reflect" || next.kind === "start-trial" ? "reflector" : next.kind === "evaluate" ? "evaluator" : "actor";
        await append([
          draft("model-call-error", {
            callId: asCallId(newId()),
            role,
            trial: "trial" in next ? next.trial : 1,
            step: next.kind === "actor-step" ? next.step : null,
            // The model in force when the call was made (after any model edit), not the original config's.
            modelId: config?.models[role]?.modelId ?? config?.models.actor.modelId ?? "",
            code: error.code,
            message: error.message,
            retryable: error.retryable,
            attempts: error.attempts,
            output: error.output,
          }),
          // The message already says what to do (model-call-errors.ts): say it once.
          draft("run-pause", { reason: "model-error", detail: error.message, at: null }),
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

/** The family's early-stop heuristic over a trial's recorded steps, if it has one. */
function earlyStopFor(deps: EngineDeps, state: RunState): ((trial: TrialView) => string | null) | undefined {
  if (!state.config) return undefined;
  const family = deps.environmentFor(state.config.environment);
  const earlyStop = family.earlyStop;
  if (!earlyStop) return undefined;
  return (trial) => earlyStop.call(family, trajectoryOf(trial));
}

/** What {@link perform} needs besides the action and the state. */
interface PerformContext extends ModelCallContext {
  newId: () => string;
  append: Append;
  episodes: EpisodeCache;
  ids: { runId: string; branchId: string };
}

async function perform(next: Exclude<NextAction, { kind: "idle" }>, state: RunState, context: PerformContext): Promise<void> {
  const { deps, newId, append, signal } = context;
  // The config as edited so far: prompt templates and model settings may have been changed while paused.
  const config = state.config;
  if (!config) throw new Error("run has no run-start event");
  const family = deps.environmentFor(config.environment);
  const task = family.parseTask(config.task);
  const trialView = (trial: number): TrialView => {
    const view = state.trials.find((t) => t.trial === trial);
    if (!view) throw new Error(`trial ${trial} has no trial-start event`);
    return view;
  };
  // Sandbox jobs (code) are not abortable themselves: on cancel the run stops waiting for them.
  const step = async (episode: Episode, parsed: ReturnType<typeof family.parseAction>): Promise<StepResult> =>
    abortable(Promise.resolve(episode.step(parsed)), signal);

  switch (next.kind) {
    case "start-trial": {
      // A warm start's reflections are read once and recorded before trial 1.
      const carried = await warmStartDraft(state, config, next.trial, deps.memory);
      if (carried) {
        await append([carried]);
        return;
      }
      // ExpeL's insights likewise: read once, recorded, never read again on replay (lib/engine/insights-carry.ts).
      const insights = await insightsDraft(state, config, next.trial, deps.memory);
      if (insights) {
        await append([insights]);
        return;
      }
      const behaviour = strategyBehaviour(config.strategy);
      // A summarising run merges an over-budget memory first (then this case runs again).
      const summary = await summarizeMemory(context, state, config, next.trial, behaviour.reflectionsInPrompt, callEnd);
      if (summary) {
        await append(summary);
        return;
      }
      // The same rule the memory panel shows as "the next trial sees" (Ω, or none under summarize).
      const { inContext, evicted } = memoryForTrial(config, state.memory);
      await append([draft("trial-start", { trial: next.trial, memory: inContext, evicted })]);
      return;
    }
    case "actor-step": {
      const trial = trialView(next.trial);
      const stepData = { trial: next.trial, step: next.step };
      // What the family may read to parse this step's action (code: whether tests are asked for again).
      const actionContext = { ...stepData, steps: trajectoryOf(trial) };
      const pending = state.pendingAction;
      if (pending && pending.trial === next.trial && pending.step === next.step) {
        // A person wrote this step's action (`action-edit`): execute it without calling the model.
        const parsed = family.parseAction(pending.text, actionContext);
        const result = await step(await context.episodes.episodeFor(family, task, state, trial, config.strategy), parsed);
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
        context.episodes.advanced();
        return;
      }
      const previous = state.trials.find((t) => t.trial === next.trial - 1) ?? null;
      const request: ModelRequest = {
        role: "actor",
        // A tree-search rollout samples as its followed child was sampled (./tree-phase.ts).
        settings: rolloutSettings(state, next.trial) ?? config.models.actor,
        messages: buildActorMessages(config, family, task, trial, next.step, previous, state.trials),
        stopSequences: family.actorStopSequences,
        cachePrefixChars: actorCachePrefixChars(config, family, task),
      };
      const usableAction = (text: string) => family.parseAction(family.splitCompletion(text).actionText, actionContext).ok;
      // After a context-length error the prompt is rebuilt once for a tighter budget (docs/decisions/0016).
      const shrinkActor = (fit: Parameters<typeof buildActorPrompt>[7]) => buildActorPrompt(config, family, task, trial, next.step, previous, state.trials, fit);
      const response = await callModel(context, request, { role: "actor", trial: next.trial, step: next.step }, state.replayMode, usableAction, 0, shrinkActor);
      const callEventId = newId();
      const callId = asCallId(newId());
      const completion = family.splitCompletion(response.text);
      const parsed = family.parseAction(completion.actionText, actionContext);
      const result = await step(await context.episodes.episodeFor(family, task, state, trial, config.strategy), parsed);
      await append([
        callEnd(callEventId, callId, request, response, next.trial, next.step),
        draft("step-thought", { ...stepData, text: completion.thought, callId, reasoning: completion.reasoning || null }, { causedBy: callEventId }),
        draft(
          "step-action",
          {
            ...stepData,
            text: completion.actionText,
            action: parsed.ok ? parsed.action : null,
            parseError: parsed.ok ? null : parsed.error,
            callId,
            ignored: [completion.ignored, parsed.ok ? parsed.ignored : undefined].filter((part) => part !== undefined && part.trim() !== "").join("\n") || null,
            truncated: response.finishReason === "length",
          },
          { causedBy: callEventId },
        ),
        observationDraft(stepData, result),
      ]);
      context.episodes.advanced();
      return;
    }
    case "refine-feedback":
    case "refine-answer": {
      // Self-Refine's feedback and refinement (./refine-calls.ts): the Actor's model critiques, then rewrites, the answer.
      const build = next.kind === "refine-feedback" ? feedbackDrafts : refineDrafts;
      await append(await build(context, state, config, family, task, trialView(next.trial), next, callEnd));
      return;
    }
    case "evaluate": {
      const episode = await context.episodes.episodeFor(family, task, state, trialView(next.trial), config.strategy);
      // A family whose Evaluator is a model gets the judge (./judge-calls.ts); the others are called directly.
      const judging = openJudgeSession(context, state, config, family, next.trial, callEnd);
      let verdict: Awaited<ReturnType<typeof family.evaluate>>;
      try {
        verdict = await abortable(Promise.resolve(family.evaluate(task, next.answer, episode, judging.context)), signal);
      } catch (error) {
        // The judge calls already made are recorded whatever happens; an unreadable judge answer pauses the run.
        const failure = judgeFailureDrafts(judging, error, next.trial, evaluatorSettings(config, family).modelId, newId);
        if (failure) {
          await append(failure);
          return;
        }
        if (judging.drafts.length > 0) await append(judging.drafts);
        throw error;
      }
      const outcome = verdict.verdict === "pass" ? "success" : next.halted ? "halted" : "failure";
      const reason = next.halted && verdict.verdict !== "pass" ? (next.haltReason ?? verdict.feedback) : verdict.feedback;
      const drafts = [
        ...judging.drafts,
        draft("evaluation-end", { trial: next.trial, ...verdict }),
        draft("trial-end", { trial: next.trial, outcome, reason }),
      ];
      await appendWithCheckpoint(drafts, next.trial, append, state);
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
      const hasWords = (text: string) => cleanReflection(text) !== "";
      const checks = { answer: trial.answer, memory: state.memory };
      const shrinkReflector = (fit: Parameters<typeof buildReflectorPrompt>[4]) => buildReflectorPrompt(config, family, task, trial, fit);
      let response = await callModel(context, request, { role: "reflector", trial: next.trial, step: null }, state.replayMode, hasWords, 0, shrinkReflector);
      let warning = reflectionProblem(cleanReflection(response.text), checks);
      if (warning !== null) {
        // Asked once more (its own cache key, so the first time it reaches the model); if it is still not a usable lesson it is stored with the warning.
        const asked = { ...request, messages: response.sentMessages ?? request.messages };
        const again = await callModel(context, asked, { role: "reflector", trial: next.trial, step: null }, state.replayMode, hasWords, MAX_COMPLETION_ATTEMPTS, shrinkReflector);
        const againWarning = reflectionProblem(cleanReflection(again.text), checks);
        response = again;
        warning = againWarning === null ? null : `${againWarning} (asked twice).`;
      }
      const callEventId = newId();
      const callId = asCallId(newId());
      const drafts = [
        callEnd(callEventId, callId, request, response, next.trial, null),
        draft("reflection-end", { trial: next.trial, text: cleanReflection(response.text), callId, warning }, { causedBy: callEventId }),
      ];
      await appendWithCheckpoint(drafts, next.trial, append, state);
      await rememberReflection(state, config, next.trial, deps.memory, context.ids);
      return;
    }
    case "tree-select":
    case "tree-expand":
    case "tree-value":
    case "tree-follow":
    case "tree-backprop":
      await performTreeAction(next, state, family, task, { ...context, callEnd });
      return;
    case "end-run":
      await append([draft("run-end", { outcome: next.outcome, trials: state.trials.length, stopReason: next.stopReason ?? null, stopDetail: next.stopDetail ?? null })]);
      return;
  }
}

/**
 * Appends `drafts`, then a `checkpoint` whose digest is the folded state after
 * them (a safe place to resume or fork). Two appends: if the process dies in
 * between, the log merely lacks that checkpoint; decisions never depend on it.
 */
async function appendWithCheckpoint(drafts: EventDraft[], trial: number, append: Append, state: RunState): Promise<void> {
  await append(drafts);
  // `append` has folded the drafts into `state`: its digest is the state after them.
  await append([draft("checkpoint", { trial, digest: digestState(state) })]);
}

function callEnd(
  eventId: string,
  callId: ReturnType<typeof asCallId>,
  request: ModelRequest,
  response: EngineResponse,
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
      // What was sent: the request's messages, or the shrunk ones after a context-length error.
      messages: response.sentMessages ?? request.messages,
      outputText: response.text,
      usage: response.usage,
      costUsd: response.costUsd,
      price: response.price ?? null,
      latencyMs: response.latencyMs,
      finishReason: response.finishReason,
      source: response.source,
      adjustments: response.adjustments ?? [],
      contextUse: response.contextUse,
    },
    { id: eventId },
  );
}
