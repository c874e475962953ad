import type { AdaptiveLimit } from "./rate-limit-view";

/**
 * One provider + model's adaptive limit in words, as the `/jobs` page and an experiment's
 * progress line show it: `openai:gpt-4o-mini: 9.6 req/s of ~10 learnt, concurrency 7`, or while
 * nothing was learnt `…: 3.2 req/s, no limit learnt (no 429 yet), 4 in flight`. Rates in requests
 * per second, one decimal below 10.
 */
export function adaptiveLimitText(limit: AdaptiveLimit): string {
  // One decimal below 10 req/s, whole numbers from 10 (9.96 reads "10", not "10.0").
  const rate = (perS: number) => (Math.round(perS * 10) / 10 >= 10 ? Math.round(perS).toString() : perS.toFixed(1));
  const measured = `${rate(limit.measuredRatePerS)} req/s`;
  const learnt = limit.ratePerS === null ? "no limit learnt (no 429 yet)" : `of ~${rate(limit.ratePerS)} learnt`;
  const concurrency = limit.concurrency === null ? `${limit.inFlight} in flight` : `concurrency ${limit.concurrency}`;
  return `${limit.modelId}: ${measured} ${learnt}, ${concurrency}`;
}
