import { z } from "zod";
import type { RunConfig } from "./config";
import type { RunEvent } from "./events";
import { applyEvent, emptyRunState } from "./fold-run";

/**
 * A run's trial statistics: what an experiment's trial rows (lib/domain/experiment-trial-rows.ts)
 * take from the run's root-branch log, one entry per played trial, and nothing that depends on the
 * cell (task, arm, repetition, solved flags, counted outcome, carried-forward rows, dataset hash).
 * Computed by {@link runTrialStats}, a pure fold of the log; stored per run once its root branch has
 * ended (table `run_trial_stats`, lib/server/run-trial-stats.ts) so the CSV export of a large
 * experiment does not read logs (decision 0042).
 *
 * Field names are the trial row's columns. Units: tokens are counts, `cost_usd` USD (null when a
 * call has no known price), `latency_ms` milliseconds (the trial's model calls).
 */

/** Bumped when {@link runTrialStats}' rules or the stats' shape change: stored stats are then recomputed from the log. */
export const RUN_TRIAL_STATS_VERSION = 1;

const verdict = z.enum(["pass", "fail"]).nullable();

/** One played trial's statistics (validates stored JSON). */
export const trialStatsSchema = z.object({
  /** 1-based. */
  trial: z.number().int().positive(),
  /** The trial's own end (`trial-end`), null while open or cut short; also what `countedTrialOutcome` reads. */
  trial_outcome: z.enum(["success", "failure", "halted"]).nullable(),
  halt_reason: z.string().nullable(),
  internal_verdict: verdict,
  hidden_verdict: verdict,
  false_positive: z.boolean(),
  score: z.number().nullable(),
  f1: z.number().nullable(),
  steps: z.number().int().nonnegative(),
  cached: z.boolean(),
  model_calls: z.number().int().nonnegative(),
  cached_calls: z.number().int().nonnegative(),
  tokens_in: z.number().nonnegative(),
  tokens_out: z.number().nonnegative(),
  cost_usd: z.number().nullable(),
  latency_ms: z.number().nonnegative(),
  /** The run config's strategy and Actor model in force at the trial's start (the arm's, when known, wins in the row). */
  config_strategy: z.string().nullable(),
  config_model: z.string().nullable(),
  actor_template: z.string().nullable(),
  actor_template_version_id: z.string().nullable(),
  reflector_template: z.string().nullable(),
  reflector_template_version_id: z.string().nullable(),
  actor_temperature: z.number().nullable(),
  reflector_temperature: z.number().nullable(),
  seed: z.number().nullable(),
  memory_window: z.number().nullable(),
});

/** One played trial's statistics. */
export type TrialStats = z.infer<typeof trialStatsSchema>;

/** A run's played trials, in order (empty for a run with no log or no trial yet). */
export const runTrialStatsSchema = z.array(trialStatsSchema);

/** A run's played trials, in order. */
export type RunTrialStats = TrialStats[];

function templateName(template: { id: string; version: number } | undefined): string | null {
  return template ? `${template.id}@${template.version}` : null;
}

function recordedF1(details: Record<string, unknown> | undefined): number | null {
  return typeof details?.f1 === "number" ? details.f1 : null;
}

/** The run's trial statistics from its root-branch log (folded once; the config in force is taken at each trial-start). */
export function runTrialStats(events: readonly RunEvent[]): RunTrialStats {
  const state = emptyRunState();
  const configAtStart = new Map<number, RunConfig>();
  for (const event of events) {
    applyEvent(state, event);
    if (event.type === "trial-start" && state.config) configAtStart.set(event.data.trial, state.config);
  }
  return state.trials.map((trial): TrialStats => {
    const config = configAtStart.get(trial.trial) ?? state.config;
    const calls = trial.callIds.map((callId) => state.calls[callId]).filter((call) => call !== undefined);
    const cachedCalls = calls.filter((call) => call.source === "cache").length;
    const evaluation = trial.evaluation;
    return {
      trial: trial.trial,
      trial_outcome: trial.outcome,
      halt_reason: trial.outcome === "halted" ? trial.endReason : null,
      internal_verdict: evaluation?.verdict ?? null,
      hidden_verdict: evaluation?.hiddenTests?.verdict ?? null,
      false_positive: evaluation?.falsePositive ?? false,
      score: evaluation?.score ?? null,
      f1: recordedF1(evaluation?.details),
      steps: trial.steps.length,
      cached: calls.length > 0 && cachedCalls === calls.length,
      model_calls: calls.length,
      cached_calls: cachedCalls,
      tokens_in: calls.reduce((n, call) => n + call.usage.inputTokens, 0),
      tokens_out: calls.reduce((n, call) => n + call.usage.outputTokens, 0),
      cost_usd: calls.some((call) => call.costUsd === null) ? null : calls.reduce((n, call) => n + (call.costUsd ?? 0), 0),
      latency_ms: calls.reduce((n, call) => n + call.latencyMs, 0),
      config_strategy: config?.strategy ?? null,
      config_model: config?.models.actor.modelId ?? null,
      actor_template: templateName(config?.templates.actor),
      actor_template_version_id: config?.templates.actor.versionId ?? null,
      reflector_template: templateName(config?.templates.reflector),
      reflector_template_version_id: config?.templates.reflector.versionId ?? null,
      actor_temperature: config?.models.actor.temperature ?? null,
      reflector_temperature: config?.models.reflector.temperature ?? null,
      seed: config?.models.actor.seed ?? null,
      memory_window: config?.memoryWindow ?? null,
    };
  });
}
