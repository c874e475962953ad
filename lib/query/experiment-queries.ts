"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  experimentDefinitionSchema,
  experimentListResponseSchema,
  experimentSummarySchema,
  type ExperimentDefinitionInput,
  type ExperimentSummary,
} from "@/lib/domain/experiment";
import { fetchJson, retryUnlessClientError } from "./fetch-json";
import { checkedBody } from "./checked-body";

/**
 * Experiments over HTTP (routes in lib/domain/experiment.ts): the list, one
 * experiment's summary (polled every second while it runs), create, cancel,
 * resume, and the export links. Kept apart from lib/query/index.ts on purpose;
 * import this file directly.
 */

/** Query keys of experiments: their own roots, so they never refetch a run's log. */
export const experimentKeys = {
  list: () => ["experiment-list"] as const,
  summary: (experimentId: string) => ["experiment", experimentId] as const,
};

/** How often a running experiment's summary is refetched (ms). The summary is cheap: it is computed from run summaries. */
export const EXPERIMENT_POLL_MS = 1_000;
/** How often the list is refetched while any experiment in it runs (ms). */
export const EXPERIMENT_LIST_POLL_MS = 3_000;

const experimentPath = (experimentId: string) => `/api/experiments/${encodeURIComponent(experimentId)}`;

/** The poll interval of a summary: every {@link EXPERIMENT_POLL_MS} while it runs, not at all once it ended or was cancelled. */
export function summaryPollInterval(summary: Pick<ExperimentSummary, "status"> | undefined): number | false {
  return summary === undefined || summary.status === "running" ? EXPERIMENT_POLL_MS : false;
}

/** The poll interval of the list: while any experiment runs. */
export function listPollInterval(list: { experiments: ReadonlyArray<{ status: string }> } | undefined): number | false {
  return list?.experiments.some((item) => item.status === "running") ? EXPERIMENT_LIST_POLL_MS : false;
}

/**
 * `GET /api/experiments`: experiments, newest first — people's own, or with `withDerived` also those
 * optimisations and template checks made (`?all=1`). Both keys sit under `experimentKeys.list()`.
 */
export const experimentListQuery = (withDerived = false) =>
  queryOptions({
    queryKey: withDerived ? ([...experimentKeys.list(), "all"] as const) : experimentKeys.list(),
    queryFn: ({ signal }) => fetchJson(withDerived ? "/api/experiments?all=1" : "/api/experiments", experimentListResponseSchema, { signal }),
    retry: retryUnlessClientError,
    refetchInterval: (query) => listPollInterval(query.state.data),
  });

/** `GET /api/experiments/:id`: progress, per-arm results and the task × arm cells. Polled while `status === "running"`. */
export const experimentQuery = (experimentId: string) =>
  queryOptions({
    queryKey: experimentKeys.summary(experimentId),
    queryFn: ({ signal }) => fetchJson(experimentPath(experimentId), experimentSummarySchema, { signal }),
    retry: retryUnlessClientError,
    refetchInterval: (query) => (query.state.error ? false : summaryPollInterval(query.state.data)),
    refetchIntervalInBackground: false,
  });

/** Export formats of `GET /api/experiments/:id/export`. */
export type ExperimentExportFormat = "csv" | "json" | "events" | "md" | "latex" | "svg";

/**
 * The download link of an export: CSV (task × arm × repetition × trial rows, carried forward), JSON (summary, tests,
 * per-run outcomes), events (NDJSON of every run), md / latex (tables), svg (`figure` curve with bands, or cost).
 */
export function experimentExportHref(experimentId: string, format: ExperimentExportFormat, figure?: "curve" | "cost"): string {
  return `${experimentPath(experimentId)}/export?format=${format}${figure ? `&figure=${figure}` : ""}`;
}

/**
 * Parses a definition before it is sent, so the person sees the message the
 * server would give, with the field it is about (e.g. `arms: arm labels must be unique`).
 * @throws Error with that message.
 */
export function checkDefinition(input: ExperimentDefinitionInput): z.infer<typeof experimentDefinitionSchema> {
  return checkedBody(experimentDefinitionSchema, input);
}

const createResponseSchema = z.object({ experimentId: z.string().min(1) });

/** `POST /api/experiments` (checked with the contract's schema first) → `{ experimentId }`. */
export async function createExperiment(input: ExperimentDefinitionInput): Promise<{ experimentId: string }> {
  return fetchJson("/api/experiments", createResponseSchema, { method: "POST", body: checkDefinition(input) });
}

/** Creates an experiment and refreshes the list; navigate to its results page on success. */
export function useCreateExperiment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createExperiment,
    onSuccess: () => client.invalidateQueries({ queryKey: experimentKeys.list() }),
  });
}

function useExperimentControl(experimentId: string, action: "cancel" | "resume") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson(`${experimentPath(experimentId)}/${action}`, experimentSummarySchema, { method: "POST", body: {} }),
    onSuccess: (summary) => {
      client.setQueryData(experimentKeys.summary(experimentId), summary);
      // A resumed experiment polls again; a cancelled one shows its final state after the workers stop.
      void client.invalidateQueries({ queryKey: experimentKeys.summary(experimentId) });
      void client.invalidateQueries({ queryKey: experimentKeys.list() });
    },
  });
}

/** `POST /api/experiments/:id/cancel`: cancels every queued, running or paused run (ended ones stay). */
export function useCancelExperiment(experimentId: string) {
  return useExperimentControl(experimentId, "cancel");
}

/** `POST /api/experiments/:id/resume`: creates missing runs and resumes paused or interrupted ones (cancelled runs stay cancelled). */
export function useResumeExperiment(experimentId: string) {
  return useExperimentControl(experimentId, "resume");
}

/**
 * Whether Resume can do anything: some cell has no run yet, or a run is paused
 * or interrupted. (A cancelled run has ended; Resume does not restart it.)
 */
export function canResume(summary: Pick<ExperimentSummary, "cells" | "progress">): boolean {
  return summary.cells.length < summary.progress.total || summary.cells.some((cell) => cell.status === "paused" || cell.status === "interrupted");
}

/** Whether Cancel applies: the experiment still runs (some run is queued, running or paused). */
export function canCancel(summary: Pick<ExperimentSummary, "status" | "cells">): boolean {
  return summary.status === "running" && summary.cells.some((cell) => cell.status !== "ended" && cell.status !== "error");
}
