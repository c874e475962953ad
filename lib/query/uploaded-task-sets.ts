"use client";

import { useSyncExternalStore } from "react";
import { z } from "zod";
import { environmentIdSchema } from "@/lib/domain/config";

/**
 * The server has no "list task sets" route, so the browser remembers the sets
 * it uploaded (id and name only; the tasks stay on the server) in localStorage.
 */
const STORAGE_KEY = "reflexion-playground:uploaded-task-sets";

const uploadedTaskSetSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  environment: environmentIdSchema,
  taskCount: z.number().int().nonnegative(),
});
export type UploadedTaskSet = z.infer<typeof uploadedTaskSetSchema>;

const NONE: UploadedTaskSet[] = [];
const listeners = new Set<() => void>();
let cache: { raw: string | null; value: UploadedTaskSet[] } = { raw: null, value: NONE };

function read(): UploadedTaskSet[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return NONE;
  }
  if (raw === cache.raw) return cache.value;
  let value = NONE;
  if (raw) {
    try {
      const parsed = z.array(uploadedTaskSetSchema).safeParse(JSON.parse(raw));
      if (parsed.success) value = parsed.data;
    } catch {
      value = NONE;
    }
  }
  cache = { raw, value };
  return value;
}

function write(sets: UploadedTaskSet[]): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(sets));
  } catch {
    // Private mode or a full quota: the set still works for this page view via the query cache.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** Adds (or refreshes) an uploaded set, newest first. */
export function rememberUploadedTaskSet(set: UploadedTaskSet): void {
  write([set, ...read().filter((existing) => existing.id !== set.id)].slice(0, 20));
}

/** Forgets a set, e.g. when the server no longer knows it. */
export function forgetUploadedTaskSet(id: string): void {
  write(read().filter((existing) => existing.id !== id));
}

/** The task sets this browser uploaded, newest first. Empty during server rendering. */
export function useUploadedTaskSets(): UploadedTaskSet[] {
  return useSyncExternalStore(subscribe, read, () => NONE);
}
