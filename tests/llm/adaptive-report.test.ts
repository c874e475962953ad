// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { AdaptiveSnapshot } from "@/lib/llm/rate-limits/adaptive-controller";
import { adaptiveLimitsOf } from "@/lib/llm/rate-limits/adaptive-report";
import { ProviderRatesLine } from "@/components/experiments/experiment-provider-rates";

/** Reports of several keys and processes summed per provider + model, and the experiment's progress line that shows them. */

afterEach(cleanup);

const state = (over: Partial<AdaptiveSnapshot>): AdaptiveSnapshot => ({
  ratePerS: null,
  concurrency: null,
  measuredRatePerS: 0,
  inFlight: 0,
  baselineLatencyMs: 300,
  rateLimited: 0,
  started: 0,
  decreases: 0,
  pausedUntil: null,
  ...over,
});

describe("adaptive limits per provider + model", () => {
  it("sums what each process learnt (each adapts within its share), drops key ids, keeps open models open", () => {
    const models = adaptiveLimitsOf([
      { key: "compatible:fake-model|aaaa", modelId: "compatible:fake-model", process: "host:1", state: state({ ratePerS: 5.1, measuredRatePerS: 4.9, concurrency: 4, inFlight: 3, rateLimited: 4, started: 700, pausedUntil: Date.UTC(2026, 11, 1, 10, 0, 5) }) },
      { key: "compatible:fake-model|aaaa", modelId: "compatible:fake-model", process: "host:2", state: state({ ratePerS: 4.8, measuredRatePerS: 4.7, concurrency: null, inFlight: 2, rateLimited: 6, started: 800 }) },
      { key: "openai:gpt-4o-mini|bbbb", modelId: "openai:gpt-4o-mini", process: "host:1", state: state({ measuredRatePerS: 3.24, inFlight: 4, started: 40 }) },
    ]);
    expect(models).toEqual([
      { modelId: "compatible:fake-model", keys: 1, processes: 2, ratePerS: 9.9, measuredRatePerS: 9.6, concurrency: 4, inFlight: 5, rateLimited: 10, started: 1500, pausedUntil: "2026-12-01T10:00:05.000Z" },
      { modelId: "openai:gpt-4o-mini", keys: 1, processes: 1, ratePerS: null, measuredRatePerS: 3.24, concurrency: null, inFlight: 4, rateLimited: 0, started: 40, pausedUntil: null },
    ]);
    expect(JSON.stringify(models)).not.toMatch(/aaaa|bbbb/);
  });

  it("the experiment's progress line: the rate now, the learnt rate and calls in flight of each model", () => {
    const models = adaptiveLimitsOf([{ key: "compatible:fake-model|none", modelId: "compatible:fake-model", process: "host:1", state: state({ ratePerS: 9.96, measuredRatePerS: 9.61, concurrency: 7, inFlight: 6 }) }]);
    render(createElement(ProviderRatesLine, { models }));
    expect(screen.getByTestId("experiment-provider-rates").textContent).toBe("compatible:fake-model: 9.6 req/s of ~10 learnt, concurrency 7");
    cleanup();
    render(createElement(ProviderRatesLine, { models: [] }));
    expect(screen.queryByTestId("experiment-provider-rates")).toBeNull();
  });
});
