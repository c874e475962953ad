"use client";

import { useQuery } from "@tanstack/react-query";
import { adaptiveLimitText } from "@/lib/domain/adaptive-limit-text";
import type { AdaptiveLimit } from "@/lib/domain/rate-limit-view";
import { rateLimitsQuery } from "@/components/jobs/dead-letters-query";

/**
 * Beside a running experiment's progress: the adaptive limit of each provider + model its arms
 * call (`GET /api/jobs/rate-limits`, every 5 s), e.g. "compatible:fake-model: 9.6 req/s of ~10
 * learnt, concurrency 7". Nothing while the experiment is not running, adaptation is off, or
 * none of its models was called yet; a failed read shows nothing either (the /jobs page says why).
 */
export function ExperimentProviderRates({ modelIds, running }: { modelIds: readonly string[]; running: boolean }) {
  const query = useQuery({ ...rateLimitsQuery(), enabled: running });
  if (!running || !query.data) return null;
  return <ProviderRatesLine models={query.data.adaptive.models.filter((model) => modelIds.includes(model.modelId))} />;
}

/** The line itself (exported for render tests); nothing when `models` is empty. */
export function ProviderRatesLine({ models }: { models: readonly AdaptiveLimit[] }) {
  if (models.length === 0) return null;
  return (
    <p className="text-xs tabular-nums text-slate-600" data-testid="experiment-provider-rates">
      {models.map((model) => adaptiveLimitText(model)).join(" · ")}
    </p>
  );
}
