"use client";

import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { annotationListResponseSchema, annotationResponseSchema } from "@/lib/domain/annotation-api";
import type { Annotation, AnnotationChangeRequest, AnnotationCreateRequest } from "@/lib/domain/annotations";
import { fetchJson, retryUnlessClientError } from "./fetch-json";
import { branchKey } from "./keys";

/** Query keys of annotations: per run, then per branch (`root` for the root branch). */
export const annotationKeys = {
  run: (runId: string) => ["annotations", runId] as const,
  branch: (runId: string, branch: string | null) => ["annotations", runId, branchKey(branch)] as const,
};

const base = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/annotations`;

/** `GET /api/runs/:runId/annotations?branch=`: the annotations a branch sees (the graph's badges and the inspector's notes share it). */
export const annotationsQuery = (runId: string, branch: string | null) =>
  queryOptions({
    queryKey: annotationKeys.branch(runId, branch),
    queryFn: ({ signal }) => fetchJson(`${base(runId)}${branch ? `?branch=${encodeURIComponent(branch)}` : ""}`, annotationListResponseSchema, { signal }),
    retry: retryUnlessClientError,
  });

/**
 * How many notes (not deleted, replies included) each node has, by event id: what the run graph's
 * badges show. One map for the whole graph, so no node asks the server anything.
 */
export function annotationCounts(annotations: readonly Annotation[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const annotation of annotations) {
    if (!annotation.deleted) counts.set(annotation.target.eventId, (counts.get(annotation.target.eventId) ?? 0) + 1);
  }
  return counts;
}

/**
 * Add, reply, edit and delete, as mutations; each refetches the run's annotation lists (every
 * branch: a note on a shared prefix shows on the forks too).
 */
export function useAnnotationMutations(runId: string) {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: annotationKeys.run(runId) });
  const create = useMutation({
    mutationFn: (request: AnnotationCreateRequest) => fetchJson(base(runId), annotationResponseSchema, { method: "POST", body: request }),
    onSuccess,
  });
  const change = useMutation({
    mutationFn: ({ annotationId, request }: { annotationId: string; request: AnnotationChangeRequest }) =>
      fetchJson(`${base(runId)}/${encodeURIComponent(annotationId)}`, annotationResponseSchema, { method: "PATCH", body: request }),
    onSuccess,
  });
  return { create, change };
}
