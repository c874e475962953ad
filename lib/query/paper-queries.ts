"use client";

import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiErrorSchema } from "@/lib/domain/api";
import { importListResponseSchema, importResponseSchema, type ImportResponse } from "@/lib/domain/paper-import";
import { reflectionListResponseSchema } from "@/lib/domain/reflection-outcomes";
import { experimentKeys } from "./experiment-queries";
import { ApiRequestError, fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";

/**
 * The paper's runs over HTTP: the importable logs of the shared
 * folder, importing them (by path or by upload, with upload progress) and the
 * reflections list. Import this file directly.
 */

/** Query keys: own roots, so an import never refetches a run's log. */
export const paperKeys = {
  imports: () => ["paper-imports"] as const,
  reflections: (params: ReflectionParams) => ["reflections", params] as const,
};

/** `GET /api/imports`: the shared folder's importable logs and whether each was imported. */
export const importListQuery = () =>
  queryOptions({
    queryKey: paperKeys.imports(),
    queryFn: ({ signal }) => fetchJson("/api/imports", importListResponseSchema, { signal }),
    retry: 1,
  });

/**
 * After an import: the list of logs (their "Open" links), the experiment list,
 * the run list and the task sets (an import stores its tasks, e.g. the 100
 * HotpotQA questions, which "Run these tasks yourself" picks) change.
 */
function useInvalidateAfterImport() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: paperKeys.imports() });
    void client.invalidateQueries({ queryKey: experimentKeys.list() });
    void client.invalidateQueries({ queryKey: queryKeys.runList() });
    void client.invalidateQueries({ queryKey: queryKeys.taskSets() });
  };
}

/** `POST /api/imports {paths}`: imports logs of the shared folder (idempotent: a second import returns the same experiment). */
export function useImportPaths() {
  const invalidate = useInvalidateAfterImport();
  return useMutation({
    mutationFn: (paths: string[]) => fetchJson("/api/imports", importResponseSchema, { method: "POST", body: { paths } }),
    onSettled: invalidate,
  });
}

/** Upload progress: bytes sent of the request body's total. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * `POST /api/imports` as `multipart/form-data`, one `file` field per file (an
 * ALFWorld folder's `env_results_trial_N.json` files go in one request). XHR,
 * not fetch, so the upload reports progress. The server's 400 message names
 * the file and line; it becomes the error's message unchanged.
 */
export function uploadImport(files: readonly File[], onProgress: (progress: UploadProgress) => void): Promise<ImportResponse> {
  const form = new FormData();
  for (const file of files) form.append("file", file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/imports");
    request.setRequestHeader("accept", "application/json");
    request.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    request.onerror = () => reject(new ApiRequestError(0, "network", "Could not reach the server. Is it running?"));
    request.onload = () => {
      let json: unknown = undefined;
      try {
        json = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        reject(new ApiRequestError(request.status, "invalid-response", `The server sent something that is not JSON (${request.status}).`));
        return;
      }
      if (request.status < 200 || request.status >= 300) {
        const error = apiErrorSchema.safeParse(json);
        reject(error.success ? new ApiRequestError(request.status, error.data.error.code, error.data.error.message) : new ApiRequestError(request.status, "http", `${request.status} ${request.statusText}`.trim()));
        return;
      }
      const parsed = importResponseSchema.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else reject(new ApiRequestError(request.status, "invalid-response", `Unexpected response from /api/imports: ${parsed.error.issues[0]?.message ?? "invalid"}`));
    };
    request.send(form);
  });
}

/** Uploads files for import; `onProgress` is called while the body is sent. */
export function useUploadImport(onProgress: (progress: UploadProgress) => void) {
  const invalidate = useInvalidateAfterImport();
  return useMutation({ mutationFn: (files: File[]) => uploadImport(files, onProgress), onSettled: invalidate });
}

/** The reflections list's filters as in the URL (lib/domain/reflection-outcomes.ts `reflectionQuerySchema`). */
export interface ReflectionParams {
  experimentId?: string;
  runId?: string;
  q?: string;
  helped?: boolean;
  limit?: number;
  cursor?: string;
}

/** The `GET /api/reflections` URL of a set of filters (unset ones left out). */
export function reflectionsPath(params: ReflectionParams): string {
  const search = new URLSearchParams();
  if (params.experimentId) search.set("experimentId", params.experimentId);
  if (params.runId) search.set("runId", params.runId);
  if (params.q && params.q.trim() !== "") search.set("q", params.q.trim());
  if (params.helped !== undefined) search.set("helped", String(params.helped));
  if (params.limit !== undefined) search.set("limit", String(params.limit));
  if (params.cursor) search.set("cursor", params.cursor);
  const text = search.toString();
  return `/api/reflections${text ? `?${text}` : ""}`;
}

/** `GET /api/reflections`: one page of reflections with the counts of worked / did not help. */
export const reflectionsQuery = (params: ReflectionParams) =>
  queryOptions({
    queryKey: paperKeys.reflections(params),
    queryFn: ({ signal }) => fetchJson(reflectionsPath(params), reflectionListResponseSchema, { signal }),
    placeholderData: keepPreviousData,
    retry: 1,
  });
