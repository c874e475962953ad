import { useMutation, useQueryClient } from "@tanstack/react-query";
import { traceReflectionResponseSchema, type TraceReflectionRequest } from "@/lib/domain/trace-reflection";
import { memoryStoresQuery } from "./cost-queries";
import { apiErrorSchema } from "@/lib/domain/api";
import { traceImportResponseSchema, type TraceImportResponse } from "@/lib/domain/trace-import";
import { experimentKeys } from "./experiment-queries";
import { ApiRequestError, fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";

/**
 * `POST /api/trace-reflections`: judge an import's traces, write a Self-Reflection for each failure
 * and store it in a memory store (lib/domain/trace-reflection.ts). Memory-store listings are
 * refreshed after it (their entry counts change).
 */
export function useReflectOnTraces() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TraceReflectionRequest) => fetchJson("/api/trace-reflections", traceReflectionResponseSchema, { method: "POST", body: request }),
    onSettled: () => client.invalidateQueries({ queryKey: memoryStoresQuery().queryKey }),
  });
}

/**
 * Uploads trace files to `POST /api/imports/traces` (multipart `file` fields) and parses the answer
 * (lib/domain/trace-import.ts): the files imported and those refused, each with its reason. When
 * every file was refused the server answers 400 with that list, returned here like a 200's; a
 * request refused as a whole (no server, a body over the limit) throws {@link ApiRequestError}.
 */
export async function uploadTraces(files: readonly File[], format: TraceFormatChoice): Promise<TraceImportResponse> {
  const form = new FormData();
  for (const file of files) form.append("file", file, file.name);
  const response = await fetch(`/api/imports/traces?format=${encodeURIComponent(format)}`, { method: "POST", body: form, headers: { accept: "application/json" } }).catch((cause: unknown) => {
    throw new ApiRequestError(0, "network", "Could not reach the server. Is it running?", { cause });
  });
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const refused = traceImportResponseSchema.safeParse(json);
    if (refused.success && refused.data.failed.length > 0) return refused.data;
    const error = apiErrorSchema.safeParse(json);
    throw error.success ? new ApiRequestError(response.status, error.data.error.code, error.data.error.message) : new ApiRequestError(response.status, "http", `${response.status} ${response.statusText}`.trim());
  }
  const parsed = traceImportResponseSchema.safeParse(json);
  if (!parsed.success) throw new ApiRequestError(response.status, "invalid-response", `Unexpected response from /api/imports/traces: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

/** The format picker's choices: `auto` sniffs the content. */
export type TraceFormatChoice = "auto" | TraceImportResponse["imports"][number]["format"];

/** Imports trace files; the experiment and run lists are refreshed after it. */
export function useUploadTraces() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ files, format }: { files: File[]; format: TraceFormatChoice }) => uploadTraces(files, format),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: experimentKeys.list() }), client.invalidateQueries({ queryKey: queryKeys.runList() })]),
  });
}
