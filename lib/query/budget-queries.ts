"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { scopeKey, spendingLimitsResponseSchema, type SetSpendingLimitRequest, type SpendingLimit } from "@/lib/domain/spending-limits";
import { fetchJson } from "./fetch-json";

/** Budgets per person and per lab (Settings → Budgets): `GET/PUT/DELETE /api/budgets`. */

/** Query key of the budgets list. */
export const budgetsKey = () => ["budgets"] as const;

/** `GET /api/budgets`: every budget with this period's spend. */
export const budgetsQuery = () =>
  queryOptions({
    queryKey: budgetsKey(),
    queryFn: ({ signal }) => fetchJson("/api/budgets", spendingLimitsResponseSchema, { signal }),
    staleTime: 5_000,
  });

/** `PUT /api/budgets`: sets or replaces one budget. */
export function useSetBudget() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SetSpendingLimitRequest) => fetchJson("/api/budgets", spendingLimitsResponseSchema, { method: "PUT", body: input }),
    onSuccess: (answer) => client.setQueryData(budgetsKey(), answer),
  });
}

/** `DELETE /api/budgets?scope=…&period=…`: removes one budget. */
export function useRemoveBudget() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (limit: Pick<SpendingLimit, "scope" | "period">) =>
      fetchJson(`/api/budgets?scope=${encodeURIComponent(scopeKey(limit.scope))}&period=${limit.period}`, spendingLimitsResponseSchema, { method: "DELETE" }),
    onSuccess: (answer) => client.setQueryData(budgetsKey(), answer),
  });
}
