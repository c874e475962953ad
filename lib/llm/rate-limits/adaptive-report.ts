import type { AdaptiveLimit } from "@/lib/domain/rate-limit-view";
import type { AdaptiveSnapshot } from "./adaptive-controller";

/** One process's adaptive limit of one limiter key (`provider:model|key-id`), as reported. */
export interface AdaptiveReport {
  /** The limiter key; only its provider + model leaves {@link adaptiveLimitsOf}. */
  key: string;
  modelId: string;
  /** Which process reported it (host:pid). */
  process: string;
  state: AdaptiveSnapshot;
}

/**
 * The adaptive limits per provider + model for `/jobs`: the reports of every key and process of a
 * model summed (rates, calls in flight, limits, counts — each process adapts within its share, so
 * the sums are what the model gets), the latest pause; a model is open (`ratePerS` null) only when
 * every report is. Rates in requests per second, to 0.01. Sorted by model id. Key ids are dropped here.
 */
export function adaptiveLimitsOf(reports: readonly AdaptiveReport[]): AdaptiveLimit[] {
  const byModel = new Map<string, AdaptiveReport[]>();
  for (const report of reports) byModel.set(report.modelId, [...(byModel.get(report.modelId) ?? []), report]);
  return [...byModel.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([modelId, list]): AdaptiveLimit => {
      const sum = (pick: (state: AdaptiveSnapshot) => number) => list.reduce((total, report) => total + pick(report.state), 0);
      const learnt = list.filter((report) => report.state.ratePerS !== null);
      const limited = list.filter((report) => report.state.concurrency !== null);
      const paused = Math.max(0, ...list.map((report) => report.state.pausedUntil ?? 0));
      return {
        modelId,
        keys: new Set(list.map((report) => report.key)).size,
        processes: new Set(list.map((report) => report.process)).size,
        ratePerS: learnt.length === 0 ? null : hundredths(learnt.reduce((total, report) => total + (report.state.ratePerS ?? 0), 0)),
        measuredRatePerS: hundredths(sum((state) => state.measuredRatePerS)),
        concurrency: limited.length === 0 ? null : Math.max(1, limited.reduce((total, report) => total + (report.state.concurrency ?? 0), 0)),
        inFlight: sum((state) => state.inFlight),
        rateLimited: sum((state) => state.rateLimited),
        started: sum((state) => state.started),
        pausedUntil: paused > 0 ? new Date(paused).toISOString() : null,
      };
    });
}

function hundredths(value: number): number {
  return Math.round(value * 100) / 100;
}
