import { queryOptions } from "@tanstack/react-query";
import { keyFactsResponseSchema } from "@/lib/domain/key-facts";
import { fetchJson } from "./fetch-json";

/** `GET /api/key-facts`: a task's key facts for the demo model (never change while the server runs). */
export const keyFactsQuery = (task: { environment: string; taskId: string; strategy?: string } | null) =>
  queryOptions({
    queryKey: ["key-facts", task?.environment ?? null, task?.taskId ?? null, task?.strategy ?? null] as const,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams(task ? { environment: task.environment, taskId: task.taskId, ...(task.strategy ? { strategy: task.strategy } : {}) } : {});
      return fetchJson(`/api/key-facts?${params.toString()}`, keyFactsResponseSchema, { signal });
    },
    enabled: task !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
