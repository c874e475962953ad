"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { memoryStoresResponseSchema, runLessonsResponseSchema } from "@/lib/domain/memory-store";
import { priceTableResponseSchema, type NewPrice } from "@/lib/domain/prices";
import { fetchJson } from "./fetch-json";

/** The price table and the memory stores of the settings page. */

/** Query key of the price table. */
export const pricesKey = () => ["settings-prices"] as const;
/** Query key of the memory store list. */
export const memoryStoresKey = () => ["memory-stores"] as const;

/** `GET /api/settings/prices`: every row and the ones in force now. */
export const pricesQuery = () =>
  queryOptions({
    queryKey: pricesKey(),
    queryFn: ({ signal }) => fetchJson("/api/settings/prices", priceTableResponseSchema, { signal }),
    staleTime: 10_000,
  });

/** `PUT /api/settings/prices`: adds a dated row for a model. */
export function useSetPrice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: NewPrice) => fetchJson("/api/settings/prices", priceTableResponseSchema, { method: "PUT", body: input }),
    onSuccess: (table) => client.setQueryData(pricesKey(), table),
  });
}

/** `GET /api/memory-stores`: each store with its retention and entry counts. */
export const memoryStoresQuery = () =>
  queryOptions({
    queryKey: memoryStoresKey(),
    queryFn: ({ signal }) => fetchJson("/api/memory-stores", memoryStoresResponseSchema, { signal }),
    staleTime: 5_000,
  });

/** `PUT /api/memory-stores`: creates a store or changes its retention (days). */
export function usePutMemoryStore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; retentionDays: number }) => fetchJson("/api/memory-stores", memoryStoresResponseSchema, { method: "PUT", body: input }),
    onSuccess: (answer) => client.setQueryData(memoryStoresKey(), answer),
  });
}

/** `GET /api/runs/:runId/lessons`: what memory stores hold from one run (under the memory-stores key, so a reflection pass refreshes it). */
export const runLessonsQuery = (runId: string) =>
  queryOptions({
    queryKey: [...memoryStoresKey(), "run", runId] as const,
    queryFn: ({ signal }) => fetchJson(`/api/runs/${encodeURIComponent(runId)}/lessons`, runLessonsResponseSchema, { signal }),
    staleTime: 5_000,
  });
