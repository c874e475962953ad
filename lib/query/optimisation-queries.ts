"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { optimisationPhase, optimisationRecordSchema, type OptimisationRecord, type OptimisationRequest, type ResumeOptimisationRequest } from "@/lib/domain/optimiser/types";
import { fetchJson } from "./fetch-json";

/**
 * The reflective optimiser's client side (docs/optimiser.md): `GET /api/optimisations[/:id]`, polled
 * while an optimisation runs, and the start / resume mutations.
 */

export const optimisationKeys = {
  all: () => ["optimisations"] as const,
  list: () => ["optimisations", "list"] as const,
  detail: (id: string) => ["optimisations", "detail", id] as const,
};

const listSchema = z.object({ optimisations: z.array(optimisationRecordSchema) });
const oneSchema = z.object({ optimisation: optimisationRecordSchema });

/** How often a running optimisation is read again, ms. */
export const OPTIMISATION_POLL_MS = 1_000;

/** Polls while one is running with a live lease; an interrupted one (lease expired) changes no more. */
export const pollWhileRunning = (records: readonly OptimisationRecord[] | undefined, now = Date.now()) =>
  records?.some((record) => optimisationPhase(record, now) === "running") ? OPTIMISATION_POLL_MS : false;

/** Every optimisation, newest first (polled while one runs). */
export const optimisationListQuery = () =>
  queryOptions({
    queryKey: optimisationKeys.list(),
    queryFn: async ({ signal }) => (await fetchJson("/api/optimisations", listSchema, { signal })).optimisations,
    refetchInterval: (query) => pollWhileRunning(query.state.data),
  });

/** The optimisations fed by one experiment, newest first. */
export function optimisationsOfExperiment(records: readonly OptimisationRecord[], experimentId: string): OptimisationRecord[] {
  return records.filter((record) => record.request.experimentId === experimentId);
}

/** `POST /api/optimisations` → the new record (it runs in the background). */
export function useStartOptimisation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (request: OptimisationRequest) => (await fetchJson("/api/optimisations", oneSchema, { method: "POST", body: request })).optimisation,
    onSuccess: () => client.invalidateQueries({ queryKey: optimisationKeys.all() }),
  });
}

/** `POST /api/optimisations/:id/resume` (a new budget, null for none, or absent to keep it). */
export function useResumeOptimisation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (request: ResumeOptimisationRequest) => (await fetchJson(`/api/optimisations/${encodeURIComponent(id)}/resume`, oneSchema, { method: "POST", body: request })).optimisation,
    onSuccess: () => client.invalidateQueries({ queryKey: optimisationKeys.all() }),
  });
}
