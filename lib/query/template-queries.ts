"use client";

import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiErrorSchema } from "@/lib/domain/api";
import type { EnvironmentId } from "@/lib/domain/config";
import {
  abRequestSchema,
  abResultSchema,
  createTemplateRequestSchema,
  createTemplateResponseSchema,
  moveLabelRequestSchema,
  previewRequestSchema,
  previewResponseSchema,
  saveVersionRequestSchema,
  saveVersionResponseSchema,
  templateDetailResponseSchema,
  templateListResponseSchema,
  templateSchema,
  versionDetailResponseSchema,
  type AbRequest,
  type CreateTemplateRequest,
  type PreviewRequest,
  type SaveVersionRequest,
  type TemplateRole,
} from "@/lib/domain/template-library";
import { lineageResponseSchema } from "@/lib/domain/template-lineage";
import { ApiRequestError, fetchJson, retryUnlessClientError } from "./fetch-json";
import { checkedBody } from "./checked-body";

/**
 * The template library over HTTP (routes in lib/domain/template-library.ts):
 * the list, one template with its versions, one version, create, save a
 * version, move a label, the live preview, "compare versions" (A/B) and an
 * A/B experiment's result. Import this file directly (not via lib/query/index.ts).
 */

/** Query keys of the template library: their own roots. */
export const templateKeys = {
  all: () => ["templates"] as const,
  list: (family: EnvironmentId | null, role: TemplateRole | null) => ["templates", "list", family ?? "*", role ?? "*"] as const,
  detail: (templateId: string) => ["templates", "detail", templateId] as const,
  version: (reference: string) => ["templates", "version", reference] as const,
  /** Under the library's root: a save or a label move (which invalidate it) redraws the tree. */
  lineage: (templateId: string) => ["templates", "lineage", templateId] as const,
  preview: (request: PreviewRequest) => ["template-preview", request] as const,
  /** An A/B read-out at a progress point (`done` runs ended): it is fetched again as runs end. */
  ab: (experimentId: string, done: number) => ["experiment-ab", experimentId, done] as const,
};

/** `/api/templates/<id>` with the id URL-encoded (ids contain `/`). */
export const templatePath = (templateId: string) => `/api/templates/${encodeURIComponent(templateId)}`;
/** The editor page of a template. */
export const templateHref = (templateId: string) => `/templates/${encodeURIComponent(templateId)}`;

/** `GET /api/templates[?family=&role=]`: every template with its newest version and version count. */
export const templateListQuery = (family: EnvironmentId | null = null, role: TemplateRole | null = null) =>
  queryOptions({
    queryKey: templateKeys.list(family, role),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (family) params.set("family", family);
      if (role) params.set("role", role);
      const search = params.toString();
      return fetchJson(`/api/templates${search ? `?${search}` : ""}`, templateListResponseSchema, { signal });
    },
    retry: retryUnlessClientError,
    refetchOnWindowFocus: true,
  });

/** `GET /api/templates/:id`: the template and its versions, newest first. */
export const templateDetailQuery = (templateId: string) =>
  queryOptions({
    queryKey: templateKeys.detail(templateId),
    queryFn: ({ signal }) => fetchJson(templatePath(templateId), templateDetailResponseSchema, { signal }),
    retry: retryUnlessClientError,
  });

/** `GET /api/templates/:id/lineage`: the template's versions as a tree with their measured scores (lib/domain/template-lineage.ts). */
export const templateLineageQuery = (templateId: string) =>
  queryOptions({
    queryKey: templateKeys.lineage(templateId),
    queryFn: ({ signal }) => fetchJson(`${templatePath(templateId)}/lineage`, lineageResponseSchema, { signal }),
    retry: retryUnlessClientError,
  });

/** `GET /api/templates/versions/:ref`: one version (id, `templateId@label` or `templateId@v<n>`). Versions never change: cached for good. */
export const templateVersionQuery = (reference: string) =>
  queryOptions({
    queryKey: templateKeys.version(reference),
    queryFn: ({ signal }) => fetchJson(`/api/templates/versions/${encodeURIComponent(reference)}`, versionDetailResponseSchema, { signal }),
    retry: retryUnlessClientError,
    staleTime: reference.startsWith("tv-") ? Number.POSITIVE_INFINITY : 30_000,
  });

/**
 * `POST /api/templates/preview`: the prompt the engine would send for a
 * recorded trial with this text, and its token count. The previous preview
 * stays on screen while the next one loads (typing does not blank it).
 */
export const templatePreviewQuery = (request: PreviewRequest | null) =>
  queryOptions({
    queryKey: templateKeys.preview(request ?? { role: "actor", runId: "", trial: 1, text: "" }),
    queryFn: ({ signal }) => fetchJson("/api/templates/preview", previewResponseSchema, { method: "POST", body: checkedBody(previewRequestSchema, request), signal }),
    enabled: request !== null && request.runId !== "",
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
    staleTime: 60_000,
  });

/**
 * `GET /api/experiments/:id/ab`: an A/B experiment's differing tasks and paired
 * test (404 `not-ab` for other experiments: the results page asks only when
 * `isAbExperiment`, lib/query/template-ab.ts). Keyed by the number of runs ended
 * (`done`, from the polled summary), so every run that ends — the last one
 * included — brings a fresh read-out; the previous one stays shown meanwhile.
 */
export const abResultQuery = (experimentId: string, done: number) =>
  queryOptions({
    queryKey: templateKeys.ab(experimentId, done),
    queryFn: ({ signal }) => fetchJson(`/api/experiments/${encodeURIComponent(experimentId)}/ab`, abResultSchema, { signal }),
    retry: retryUnlessClientError,
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** `POST /api/templates` → the new template and its first version. */
export function useCreateTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateTemplateRequest) =>
      fetchJson("/api/templates", createTemplateResponseSchema, { method: "POST", body: checkedBody(createTemplateRequestSchema, request) }),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.all() }),
  });
}

/** `POST /api/templates/:id/versions` → the new version (or the existing one with the same text, `created: false`). */
export function useSaveVersion(templateId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveVersionRequest) =>
      fetchJson(`${templatePath(templateId)}/versions`, saveVersionResponseSchema, { method: "POST", body: checkedBody(saveVersionRequestSchema, request) }),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.all() }),
  });
}

const labelResponseSchema = z.object({ template: templateSchema });

/** A `PUT` with a JSON body (fetchJson speaks GET and POST); errors as {@link ApiRequestError} with the server's message. */
async function putJson<S extends z.ZodType>(path: string, schema: S, body: unknown): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(path, { method: "PUT", headers: { accept: "application/json", "content-type": "application/json" }, body: JSON.stringify(body), cache: "no-store" });
  } catch (cause) {
    throw new ApiRequestError(0, "network", "Could not reach the server. Is it running?", { cause });
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = apiErrorSchema.safeParse(json);
    throw error.success
      ? new ApiRequestError(response.status, error.data.error.code, error.data.error.message)
      : new ApiRequestError(response.status, "http", `${response.status} ${response.statusText}`.trim());
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiRequestError(response.status, "invalid-response", `Unexpected response from ${path}.`, { cause: parsed.error });
  return parsed.data;
}

/** `PUT /api/templates/:id/labels/:label` → the template with its labels moved. */
export function useMoveLabel(templateId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ label, versionId }: { label: string; versionId: string }) =>
      putJson(`${templatePath(templateId)}/labels/${encodeURIComponent(label)}`, labelResponseSchema, checkedBody(moveLabelRequestSchema, { versionId })),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.all() }),
  });
}

const abResponseSchema = z.object({ experimentId: z.string().min(1) });

/** `POST /api/templates/ab` → `{ experimentId }` of the new two-arm experiment. */
export function useCreateAb() {
  return useMutation({
    mutationFn: (request: AbRequest) => fetchJson("/api/templates/ab", abResponseSchema, { method: "POST", body: checkedBody(abRequestSchema, request) }),
  });
}
