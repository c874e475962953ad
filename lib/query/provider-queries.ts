"use client";

import { queryOptions, useMutation } from "@tanstack/react-query";
import { providersResponseSchema, providerTestResultSchema, type ProviderId, type ProviderTestResult } from "@/lib/domain/providers";
import { fetchJson } from "./fetch-json";

/** Query key of the settings page's provider list. */
export const providersKey = () => ["settings-providers"] as const;

/**
 * `GET /api/settings/providers`: each provider's status, variable names, base URL and
 * model list (lib/domain/providers.ts). `fresh` asks the server to re-read the lists.
 */
export const providersQuery = (fresh = false) =>
  queryOptions({
    queryKey: [...providersKey(), fresh] as const,
    queryFn: ({ signal }) => fetchJson(`/api/settings/providers${fresh ? "?fresh=1" : ""}`, providersResponseSchema, { signal }),
    staleTime: 30_000,
    retry: false,
  });

/** `POST /api/settings/providers/:provider/test`: one tiny call, its latency (ms) or error. */
export function useTestProvider() {
  return useMutation<ProviderTestResult, Error, { provider: ProviderId; modelId?: string }>({
    mutationFn: ({ provider, modelId }) =>
      fetchJson(`/api/settings/providers/${encodeURIComponent(provider)}/test`, providerTestResultSchema, {
        method: "POST",
        body: modelId ? { modelId } : {},
      }),
  });
}
