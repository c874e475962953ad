"use client";

import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  createRunRequestSchema,
  editRequestSchema,
  runDetailResponseSchema,
  taskListResponseSchema,
  uploadTaskSetRequestSchema,
  type CreateRunRequest,
  type EditRequest,
  type RunDetailResponse,
  type TaskListResponse,
  type TaskSetListResponse,
} from "@/lib/domain/api";
import { breakpointsSchema, type Breakpoints, type EnvironmentId } from "@/lib/domain/config";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import type { RunEventsCache } from "./merge-events";
import { runPath } from "./queries";
import { catchUpRunEvents } from "./run-events";

const createRunResponseSchema = z.object({ runId: z.string().min(1) });

/** Parses a request body before sending it, so the user sees the same message the server would give. */
function checked<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    throw new Error(`${where}${issue?.message ?? "invalid input"}`);
  }
  return parsed.data;
}

/** After a control or edit call: store the returned summary, its status, and fetch the events it appended. */
async function afterRunChange(client: QueryClient, runId: string, detail: RunDetailResponse): Promise<void> {
  client.setQueryData(queryKeys.run(runId), detail);
  client.setQueryData<RunEventsCache>(queryKeys.runEvents(runId), (existing) =>
    existing && existing.status !== detail.run.status ? { ...existing, status: detail.run.status } : existing,
  );
  void client.invalidateQueries({ queryKey: queryKeys.runList() });
  await catchUpRunEvents(client, runId).catch(() => undefined);
}

/** `POST /api/runs` → `{ runId }`. */
export function useCreateRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateRunRequest) =>
      fetchJson("/api/runs", createRunResponseSchema, { method: "POST", body: checked(createRunRequestSchema, request) }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.runList() }),
  });
}

/** `POST /api/runs/:runId/pause`. */
export function usePauseRun(runId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson(`${runPath(runId)}/pause`, runDetailResponseSchema, { method: "POST", body: {} }),
    onSuccess: (detail) => afterRunChange(client, runId, detail),
  });
}

/** `POST /api/runs/:runId/resume` (also continues an interrupted run from its last checkpoint). */
export function useResumeRun(runId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson(`${runPath(runId)}/resume`, runDetailResponseSchema, { method: "POST", body: {} }),
    onSuccess: (detail) => afterRunChange(client, runId, detail),
  });
}

/** `POST /api/runs/:runId/edits` with `{ kind: "reflection", … }` or `{ kind: "memory", … }` (paused runs only). */
export function useEditRun(runId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (edit: EditRequest) =>
      fetchJson(`${runPath(runId)}/edits`, runDetailResponseSchema, { method: "POST", body: checked(editRequestSchema, edit) }),
    onSuccess: (detail) => afterRunChange(client, runId, detail),
  });
}

/** `POST /api/runs/:runId/breakpoints`. */
export function useSetBreakpoints(runId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (breakpoints: Breakpoints) =>
      fetchJson(`${runPath(runId)}/breakpoints`, runDetailResponseSchema, {
        method: "POST",
        body: checked(breakpointsSchema, breakpoints),
      }),
    onSuccess: (detail) => afterRunChange(client, runId, detail),
  });
}

/**
 * Reads a chosen file as text and `POST`s it to `/api/task-sets` as
 * `{ environment, name, content }`. The response (tasks plus any problems) is
 * put into the task list cache, the set is put at the top of the task-set list
 * (the server returns the existing set for an identical file, so it is moved,
 * not duplicated) and the list is refetched from the server.
 */
export function useUploadTaskSet(environment: EnvironmentId = "qa") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File): Promise<TaskListResponse> => {
      const content = await file.text();
      if (content.trim().length === 0) throw new Error(`${file.name} is empty.`);
      const body = checked(uploadTaskSetRequestSchema, { environment, name: file.name, content });
      return fetchJson("/api/task-sets", taskListResponseSchema, { method: "POST", body });
    },
    onSuccess: async (response) => {
      const { taskSet, tasks } = response;
      client.setQueryData(queryKeys.tasks(taskSet.environment, taskSet.id), response);
      // Show it in the picker right away, even before the refetch below answers.
      client.setQueryData<TaskSetListResponse>(queryKeys.taskSets(), (existing) => {
        const known = existing?.taskSets.find((set) => set.id === taskSet.id);
        const entry = { ...taskSet, createdAt: known?.createdAt ?? new Date().toISOString(), taskCount: tasks.length };
        return { taskSets: [entry, ...(existing?.taskSets ?? []).filter((set) => set.id !== taskSet.id)] };
      });
      await client.invalidateQueries({ queryKey: queryKeys.taskSets() });
    },
  });
}
