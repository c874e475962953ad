"use client";

import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  createRunRequestSchema,
  editRequestSchema,
  forkRequestSchema,
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
import { branchRoute, runPath } from "./queries";
import { catchUpRunEvents } from "./run-events";
import { checkedBody } from "./checked-body";
import { defaultFamilyId } from "@/lib/environments/descriptors";

const createRunResponseSchema = z.object({ runId: z.string().min(1) });

/** A fork request as a caller writes it (`replay` defaults to `recorded`). */
export type ForkRequestInput = z.input<typeof forkRequestSchema>;

/**
 * After a control or edit call on a branch: store the returned summary (the
 * root branch's), refresh the run list and the branch list, and fetch the
 * events the call appended to the branch (their page carries the branch's
 * status, with the seq it was read at).
 *
 * The answer's status is NOT written into the branch's event cache: it was
 * read when the server handled the request, and the live stream may already
 * have delivered a newer one (a resumed code run pauses again within ~100 ms,
 * often before the resume call's answer arrives). The events cache takes a
 * status only with the seq it was reported at (see `mergeEvents`); once caught
 * up, the summary is given the root events cache's status and call in flight,
 * which are never older.
 */
export async function afterRunChange(
  client: QueryClient,
  runId: string,
  branch: string | null,
  detail: RunDetailResponse,
  catchUp: (client: QueryClient, runId: string, branch: string | null) => Promise<void> = catchUpRunEvents,
): Promise<void> {
  client.setQueryData(queryKeys.run(runId), detail);
  void client.invalidateQueries({ queryKey: queryKeys.runList() });
  void client.invalidateQueries({ queryKey: queryKeys.branches(runId) });
  await catchUp(client, runId, branch).catch(() => undefined);
  const onRoot = branch === null || branch === detail.run.rootBranchId;
  const live = onRoot ? client.getQueryData<RunEventsCache>(queryKeys.runEvents(runId, branch)) : undefined;
  if (live) {
    client.setQueryData<RunDetailResponse>(queryKeys.run(runId), (existing) =>
      existing && (existing.run.status !== live.status || existing.run.activeCall !== live.activeCall)
        ? { run: { ...existing.run, status: live.status, activeCall: live.activeCall } }
        : existing,
    );
  }
}

/** `POST /api/runs` → `{ runId }`. */
export function useCreateRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateRunRequest) =>
      fetchJson("/api/runs", createRunResponseSchema, { method: "POST", body: checkedBody(createRunRequestSchema, request) }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.runList() }),
  });
}

/**
 * `POST /api/runs/:runId/pause[?branch=]`: appends a pause request and answers
 * at once; the branch reads `pausing` until its worker reaches the next step
 * boundary (a branch no worker holds pauses at once).
 */
export function usePauseRun(runId: string, branch: string | null = null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson(branchRoute(runId, "pause", branch), runDetailResponseSchema, { method: "POST", body: {} }),
    onSuccess: (detail) => afterRunChange(client, runId, branch, detail),
  });
}

/**
 * `POST /api/runs/:runId/resume[?branch=]` (also continues an interrupted run
 * from its log). With `{ step: true }` the branch performs one action and
 * pauses again (`run-pause` reason `step`).
 */
export function useResumeRun(runId: string, branch: string | null = null) {
  const client = useQueryClient();
  return useMutation({
    // `budget` replaces the run's budget before it resumes (a budget-exhausted run needs a higher one).
    mutationFn: (options: { step?: boolean; budget?: { usd?: number; tokens?: number } | null } | void) =>
      fetchJson(branchRoute(runId, "resume", branch), runDetailResponseSchema, {
        method: "POST",
        body: { ...(options?.step ? { step: true } : {}), ...(options?.budget !== undefined ? { budget: options.budget } : {}) },
      }),
    onSuccess: (detail) => afterRunChange(client, runId, branch, detail),
  });
}

/**
 * `POST /api/runs/:runId/cancel[?branch=]`: appends a cancel request and
 * answers at once (`cancelling`); the worker aborts the model call in flight
 * and ends the branch as cancelled. A branch no worker holds ends at once.
 */
export function useCancelRun(runId: string, branch: string | null = null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchJson(branchRoute(runId, "cancel", branch), runDetailResponseSchema, { method: "POST", body: {} }),
    onSuccess: (detail) => afterRunChange(client, runId, branch, detail),
  });
}

/**
 * `POST /api/runs/:runId/edits[?branch=]` with one {@link EditRequest}
 * (reflection, memory, prompt, model or action; paused branches only), always with the seq the
 * edit was made against (`baseSeq`: see `useEditBase`); a run that moved on since answers 409
 * `stale-edit` naming what changed (`isStaleEdit`).
 */
export function useEditRun(runId: string, branch: string | null, baseSeq: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (edit: EditRequest) =>
      fetchJson(branchRoute(runId, "edits", branch), runDetailResponseSchema, { method: "POST", body: checkedBody(editRequestSchema, { ...edit, baseSeq: edit.baseSeq ?? baseSeq }) }),
    onSuccess: (detail) => afterRunChange(client, runId, branch, detail),
  });
}

/** `POST /api/runs/:runId/breakpoints[?branch=]` with the whole object (kinds left out are off). */
export function useSetBreakpoints(runId: string, branch: string | null = null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (breakpoints: Breakpoints) =>
      fetchJson(branchRoute(runId, "breakpoints", branch), runDetailResponseSchema, {
        method: "POST",
        body: checkedBody(breakpointsSchema, breakpoints),
      }),
    onSuccess: (detail) => afterRunChange(client, runId, branch, detail),
  });
}

const forkResponseSchema = z.object({ branchId: z.string().min(1) });

/**
 * `POST /api/runs/:runId/fork` → `{ branchId }`: a new branch from a checkpoint
 * (or seq 1) of `fromBranchId`'s path, with optional edits applied first. The
 * server starts it right away; the branch list is refetched.
 */
export function useForkRun(runId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ForkRequestInput) =>
      fetchJson(`${runPath(runId)}/fork`, forkResponseSchema, { method: "POST", body: checkedBody(forkRequestSchema, request) }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.branches(runId) }),
  });
}

/**
 * Reads a chosen file as text and `POST`s it to `/api/task-sets` as
 * `{ environment, name, content }`. The response (tasks plus any problems) is
 * put into the task list cache, the set is put at the top of the task-set list
 * (the server returns the existing set for an identical file, so it is moved,
 * not duplicated) and the list is refetched from the server.
 */
export function useUploadTaskSet(environment: EnvironmentId = defaultFamilyId()) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File): Promise<TaskListResponse> => {
      if (file.size === 0) throw new Error(`${file.name} is empty.`);
      // Gzip files (e.g. HumanEval.jsonl.gz) go as base64 bytes; the server gunzips them.
      const gzipped = /\.gz$/i.test(file.name);
      const content = gzipped ? bytesToBase64(new Uint8Array(await file.arrayBuffer())) : await file.text();
      if (!gzipped && content.trim().length === 0) throw new Error(`${file.name} is empty.`);
      const body = checkedBody(uploadTaskSetRequestSchema, { environment, name: file.name, content, encoding: gzipped ? "base64" : "text" });
      return fetchJson("/api/task-sets", taskListResponseSchema, { method: "POST", body });
    },
    onSuccess: async (response) => {
      const { taskSet, tasks } = response;
      client.setQueryData(queryKeys.tasks(taskSet.environment, taskSet.id), response);
      // Show it in the picker right away, even before the refetch below answers.
      client.setQueryData<TaskSetListResponse>(queryKeys.taskSets(), (existing) => {
        const known = existing?.taskSets.find((set) => set.id === taskSet.id);
        // `tasks` is the first page of a large set; `total` counts them all.
        const entry = { ...taskSet, createdAt: known?.createdAt ?? new Date().toISOString(), taskCount: response.total ?? tasks.length };
        return { taskSets: [entry, ...(existing?.taskSets ?? []).filter((set) => set.id !== taskSet.id)] };
      });
      await client.invalidateQueries({ queryKey: queryKeys.taskSets() });
    },
  });
}

/**
 * `DELETE /api/task-sets/:id`: deletes an uploaded task set (runs keep the tasks they copied) and
 * drops it from the picker's list at once, then refetches the list.
 */
export function useDeleteTaskSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (taskSetId: string): Promise<void> => {
      await fetchJson(`/api/task-sets/${encodeURIComponent(taskSetId)}`, z.undefined(), { method: "DELETE" });
    },
    onSuccess: async (_nothing, taskSetId) => {
      client.setQueryData<TaskSetListResponse>(queryKeys.taskSets(), (existing) => (existing ? { taskSets: existing.taskSets.filter((set) => set.id !== taskSetId) } : existing));
      await client.invalidateQueries({ queryKey: queryKeys.taskSets() });
    },
  });
}

/** Base64 of bytes, in chunks (String.fromCharCode on a whole file would overflow the call stack). */
function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
